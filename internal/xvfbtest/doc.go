// Package xvfbtest holds what the window tests share (cmd/desktop/e2e,
// cmd/slrushot/e2e, cmd/fsmshot/e2e): finding xvfb-run, reading the PNG a
// program saved, and counting its pixels. cmd/bufferlab's bench tests and
// cvdsim's test read the PNGs they write with it too, and cmd/bufferlab's
// browser tests find Chromium with Program, the same rule as for Xvfb.
package xvfbtest
