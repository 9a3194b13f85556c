package bufmgr_test

import "testing"

func TestZZExplore(t *testing.T) {
	for _, nb := range []int{16, 32} {
		for nback := 2; nback <= 6; nback += 2 {
			var io, nu, col uint64
			for seed := uint64(0); seed < 6; seed++ {
				cfg := randomStreamConfig(seed+100, nb, nback, 2000)
				cfg.HoldCap = nb
				res, err := runStream(cfg)
				if err != nil {
					t.Fatal(err)
				}
				io += res.Stats.IOWaits
				nu += uint64(res.NoUnpinned)
				col += uint64(res.Collisions)
			}
			t.Logf("nb %d nback %d: iowaits %d nounpinned %d collisions %d", nb, nback, io, nu, col)
		}
	}
}
