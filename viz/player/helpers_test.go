package player

import "testing"

// mustPlayer is FromScenario with an error failing the test.
func mustPlayer(t *testing.T, name, src string) *Player {
	t.Helper()
	p, err := FromScenario(name, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return p
}
