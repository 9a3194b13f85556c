// Package e2e tests the desktop app (cmd/desktop) from outside: it builds
// the binary and runs it in a real window under Xvfb with Mesa's software
// OpenGL. (Ebitengine needs a display as soon as it is initialised, so the
// tests cannot live in package main.)
package e2e
