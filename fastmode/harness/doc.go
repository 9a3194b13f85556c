// Package harness measures a function the way a careful benchmark does:
// a warm-up, then repeated samples, each a batch of operations long enough
// (at least 1000 timer resolutions and 1000 timer reads) that the clock's
// granularity and read cost do not matter, summarised by the median and the
// 10th and 90th percentiles (golang.org/x/exp/stats.Quantiles, method R-7).
// A progress bar is drawn on stderr when it is a terminal and the run lasts
// more than a second.
package harness
