// Package chart draws an experiment's report as a PNG or SVG chart with
// gonum.org/v1/plot (`bufferlab bench --plot FILE`). It is kept apart from
// package exp so that the browser build, which runs experiments but draws
// its own chart, does not carry the plotting library. Each experiment's
// chart is in a file of its own (pin.go, drop.go, slru.go, fsm.go; limits
// and pool share chart.go's plotSizes) and registers itself in its init
// under the experiment's name; Plot looks it up by the report's
// experiment.
package chart
