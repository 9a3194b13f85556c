// Package sceneshot renders one scene in a real window (Ebitengine) and
// saves it as a PNG: the shared part of the scene screenshot tools
// (cmd/slrushot, cmd/fsmshot), whose end-to-end tests run them under Xvfb.
// Besides the window (Run) it holds what both commands do around it: the
// flags that choose the position in the trace and the PNG (Flags), the
// search for that position (Flags.Stop), the caption (Caption) and the
// command's exit statuses (Main). SavePNG also writes the desktop app's
// --screenshot. Its subpackage shottest runs the commands in their tests.
package sceneshot
