package app

import (
	"bufferlab/viz/layout"
	"bufferlab/viz/render"
)

// The theme: light or dark (layout.ThemeNames), chosen at start
// (Options.Theme: the desktop's --theme, the browser's
// prefers-color-scheme), switched by the D key or SetTheme (the browser's
// window.bufferlab.theme), and scaled up in presentation mode. Every
// colour the app and its scenes draw comes from it.

// useTheme sets the theme by name ("" is the default, light), at the
// scale of the current mode; an unknown name is an error that names the
// themes there are, and changes nothing.
func (a *App) useTheme(name string) error {
	if name == "" {
		name = layout.ThemeNames[0]
	}
	th, err := render.NewTheme(name, a.themeScale())
	if err != nil {
		return err
	}
	a.themeName, a.th = name, th
	if look := (pageLook{name, a.presentation}); look != a.told && a.opts.Look != nil {
		a.told = look
		a.opts.Look(name, a.presentation)
	}
	return nil
}

// themeScale is the type scale of the current mode: 1, or 1.45 in
// presentation mode (large type for a projector).
func (a *App) themeScale() float64 {
	if a.presentation {
		return 1.45
	}
	return 1
}

// pageLook is what Options.Look was last told.
type pageLook struct {
	theme        string
	presentation bool
}

// setTheme makes the theme again for the current mode (after P).
func (a *App) setTheme() { a.mustTheme(a.themeName) }

// mustTheme is useTheme for a name known to be a theme's.
func (a *App) mustTheme(name string) {
	if err := a.useTheme(name); err != nil {
		panic("app: theme " + name + " was checked and is not a theme: " + err.Error())
	}
}

// toggleTheme is the D key: the next theme of layout.ThemeNames (light,
// dark, light, …), said in the flash line.
func (a *App) toggleTheme() {
	next := layout.ThemeNames[0]
	for i, n := range layout.ThemeNames {
		if n == a.themeName {
			next = layout.ThemeNames[(i+1)%len(layout.ThemeNames)]
		}
	}
	a.mustTheme(next)
	a.flash, a.flashTicks = next+" theme (D switches)", 90
}

// SetTheme switches the theme by name (layout.ThemeNames); an unknown name
// is an error that names the themes there are, and changes nothing.
func (a *App) SetTheme(name string) error {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.useTheme(name)
}

// Theme is the name of the theme in use.
func (a *App) Theme() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.themeName
}

// themeAt is the current theme's colours at a scale: what the frame asks
// for once it has chosen the scale for the window (viz/frame's PlanFor).
func (a *App) themeAt(scale float64) *layout.Theme {
	th, err := layout.NewTheme(a.themeName, scale)
	if err != nil {
		panic("app: theme " + a.themeName + " was checked and is not a theme: " + err.Error())
	}
	th.ReducedMotion = a.access.motion.Reduced // a11y.go
	return th
}
