package keymap

import "strings"

// Where is a set of the places in the app a key or button applies.
type Where uint8

// The places: the lesson menu, a lesson or scenario of one pane, the
// side-by-side scene of several variants, the drop race (side by side,
// config drop=…), and fast mode's measurements.
const (
	Menu Where = 1 << iota
	Lesson
	SideBySide
	DropRace
	FastMode

	// Player is everywhere a lesson or scenario plays.
	Player = Lesson | SideBySide | DropRace
	// Anywhere is every place.
	Anywhere = Menu | Player | FastMode
)

// String names a set of places as the help overlay titles them.
func (w Where) String() string {
	switch w {
	case Anywhere:
		return "Everywhere"
	case Menu:
		return "In the menu"
	case Player:
		return "In a lesson or scenario"
	case DropRace:
		return "In the drop race (lesson 3)"
	case FastMode:
		return "In fast mode"
	case Player | FastMode:
		return "In a lesson, a scenario or fast mode"
	}
	var s []string
	for i, n := range []string{"menu", "lesson", "side by side", "drop race", "fast mode"} {
		if w&(1<<i) != 0 {
			s = append(s, n)
		}
	}
	return strings.Join(s, ", ")
}

// Binding is one key, mouse or touch action: the keys as the help writes
// them, the Ebitengine names viz/app/input.go handles them by (Key…,
// MouseButton…, Wheel, TouchPosition), where it applies and what it does.
type Binding struct {
	Keys  string
	Codes []string
	Where Where
	Does  string
}

// Button is one on-screen button: its label, where it is drawn, what it
// does and the keys that do the same ("" for none).
type Button struct {
	Label string
	Where Where
	Does  string
	Keys  string
}

// Tabs is the label of the tab buttons' row in the table: a small screen
// shows the scene, the lesson text or the code, one at a time.
const Tabs = "Scene | Lesson | Code"

// Bindings are every key and mouse action of the app, in the order the
// help lists them.
var Bindings = []Binding{
	{"F", []string{"KeyF"}, Anywhere, "fullscreen on or off"},
	{"P", []string{"KeyP"}, Anywhere, "presentation mode: larger type, for a projector"},
	{"D", []string{"KeyD"}, Anywhere, "dark or light theme"},
	{"? or H", []string{"KeySlash", "KeyH"}, Anywhere, "this help, on or off"},
	{"Esc", []string{"KeyEscape"}, Anywhere, "close a help, legend or message; else back to the menu"},
	{"click or tap", []string{"MouseButtonLeft", "TouchPosition"}, Anywhere, "press a button, open a lesson, choose an answer; on the bar under the buttons, seek"},

	{"↑ / ↓", []string{"KeyArrowUp", "KeyArrowDown"}, Menu, "choose a lesson"},
	{"Enter or Space", []string{"KeyEnter", "KeySpace"}, Menu, "open the chosen lesson"},
	{"F2", []string{"KeyF2"}, Menu, "fast mode: measure the pool on this machine"},
	{"S", []string{"KeyS"}, Menu, "the scenario sandbox (in the browser)"},

	{"Space", []string{"KeySpace"}, Player, "play or pause; at a key moment, go on"},
	{"→ / ←", []string{"KeyArrowRight", "KeyArrowLeft", "KeyShiftLeft", "KeyShiftRight"}, Player, "one event forward or back; with Shift, ten"},
	{"+ (=) / −", []string{"KeyEqual", "KeyKPAdd", "KeyMinus", "KeyKPSubtract"}, Player, "faster or slower (1/s to 64×)"},
	{"A", []string{"KeyA"}, Player, "auto-slow near key moments, on or off"},
	{"O", []string{"KeyO"}, Player, "play to the end of this operation"},
	{"L", []string{"KeyL"}, Player, "the pool's legend"},
	{"C", []string{"KeyC"}, Player, "copy a link to this step and event (in the browser)"},
	{"E", []string{"KeyE"}, Player, "edit this scenario in the sandbox (in the browser)"},
	{"PgDn or N", []string{"KeyPageDown", "KeyN"}, Player, "next step"},
	{"PgUp or B", []string{"KeyPageUp", "KeyB"}, Player, "previous step"},
	{"Home / End", []string{"KeyHome", "KeyEnd"}, Player, "first or last state"},
	{"1 – 9", []string{"Key1", "Key2", "Key3", "Key4", "Key5", "Key6", "Key7", "Key8", "Key9"}, Player, "answer the question"},
	{"Enter", []string{"KeyEnter"}, Player, "skip the question (reveal its answer), else one event forward"},
	{"↑ / ↓", []string{"KeyArrowUp", "KeyArrowDown"}, Player, "scroll the lesson text"},
	{"mouse wheel", []string{"Wheel"}, Player, "over the pool: zoom in or out (a large pool is a heat map); over the lesson: scroll"},

	{"T", []string{"KeyT"}, DropRace, "pace the panes by events, or by the strategies' native times measured on this machine"},
}

// Buttons are every button the app draws, in the order the help lists
// them.
var Buttons = []Button{
	{"Menu", Player | FastMode, "back to the lesson menu", "Esc"},
	{"?", Player, "this help", "? or H"},
	{"Legend", Player, "the pool's legend", "L"},
	{"Link", Player, "copy a link to this step and event (in the browser)", "C"},
	{"Edit", Player, "edit the scenario in the sandbox (in the browser)", "E"},
	{"|< start", Player, "the first state", "Home"},
	{"<< step", Player, "the previous step", "PgUp or B"},
	{"< back", Player, "one event back", "←"},
	{"play", Player, "play, or pause while playing", "Space"},
	{"pause", Player, "pause", "Space"},
	{"Continue", Player, "go on from a key moment", "Space"},
	{"next >", Player, "one event forward", "→"},
	{"op end", Player, "to the end of this operation", "O"},
	{"step >>", Player, "the next step", "PgDn or N"},
	{"end >|", Player, "the last state", "End"},
	{"slower", Player, "slower", "−"},
	{"faster", Player, "faster", "+"},
	{"Reset progress (R)", Menu, "forget all progress (twice)", "R R"},
	{Tabs, Player, "tabs on a phone or projector", ""},
	{"T", DropRace, "pace by events or by native times", "T"},
	{"÷2", DropRace, "try auto's rule with half the blocks to drop", ""},
	{"×2", DropRace, "try it with twice the blocks", ""},
	{"=", DropRace, "back to the last drop's blocks", ""},
}

// Sections are the help's groups: the bindings of each set of places
// (in the order of their first binding), then the buttons.
type Section struct {
	Where    Where
	Title    string
	Bindings []Binding
	Buttons  []Button
}

// Sections groups the table for the help overlay: the bindings by where
// they apply, the buttons last.
func Sections() []Section {
	var out []Section
	idx := map[Where]int{}
	for _, b := range Bindings {
		i, ok := idx[b.Where]
		if !ok {
			i = len(out)
			idx[b.Where] = i
			out = append(out, Section{Where: b.Where, Title: b.Where.String()})
		}
		out[i].Bindings = append(out[i].Bindings, b)
	}
	var all Where
	for _, b := range Buttons {
		all |= b.Where
	}
	return append(out, Section{Where: all, Title: "Buttons", Buttons: Buttons})
}
