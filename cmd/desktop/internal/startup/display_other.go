//go:build !((linux && !android) || freebsd || netbsd || openbsd || dragonfly)

package startup

// CheckDisplay has nothing to check where the window system is always
// there (macOS, Windows).
func CheckDisplay(getenv func(string) string) error { return nil }
