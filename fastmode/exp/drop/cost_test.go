package drop

import "testing"

// The calibration measures positive times for every strategy at two pool
// sizes and refuses bad sizes. (No test asserts a time or a ratio of
// times: `bufferlab bench drop` measures those.)
func TestMeasureDropCosts(t *testing.T) {
	small, err := MeasureDropCosts(128)
	if err != nil {
		t.Fatal(err)
	}
	large, err := MeasureDropCosts(16384)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []DropCosts{small, large} {
		if !(c.ScanNs > 0 && c.LookupNs > 0 && c.DListNs > 0 && c.DescriptorNs > 0 && c.HopNs > 0) || c.Timer == "" {
			t.Fatalf("costs %+v", c)
		}
	}
	if small.NBuffers != 128 || large.NBuffers != 16384 || large.DescriptorNs != large.ScanNs/16384 || large.HopNs != large.DListNs/2 {
		t.Errorf("derived costs inconsistent: %+v", large)
	}
	if _, err := MeasureDropCosts(8); err == nil {
		t.Error("8 buffers accepted")
	}
	t.Log(small)
	t.Log(large)
}
