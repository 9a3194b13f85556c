//go:build !race

package slru_test

const raceEnabled = false
