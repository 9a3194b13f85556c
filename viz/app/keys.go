package app

import "bufferlab/viz/keymap"

// keyPlace is where the app is, in keymap's terms: the help overlay puts
// the keys and buttons that apply there first.
func (a *App) keyPlace() keymap.Where {
	switch {
	case a.fast != nil:
		return keymap.FastMode
	case a.p == nil:
		return keymap.Menu
	case a.p.Panes() > 1 && a.p.Variant.Key() == "drop":
		return keymap.DropRace
	case a.p.Panes() > 1:
		return keymap.SideBySide
	}
	return keymap.Lesson
}
