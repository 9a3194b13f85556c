//go:build !race

package bufmgr_test

const raceEnabled = false
