package app

import (
	"bufferlab/viz/mech"
	_ "bufferlab/viz/mech/all" // every mechanism's registration
)

// title is the heading a mechanism's registration gives its scene for a
// view (the mechanism's name when it registers none).
func (a *App) title(name string, state any) string {
	if m, ok := mech.Lookup(name); ok && m.Title != nil {
		return m.Title(state)
	}
	return name
}
