// Package sceneshot renders one scene in a real window (Ebitengine) and
// saves it as a PNG: the shared part of the scene screenshot tools
// (cmd/slrushot, cmd/fsmshot), whose end-to-end tests run them under Xvfb.
package sceneshot
