// Package all registers every mechanism with viz/mech: import it (for
// its side effects) wherever mechanisms are iterated. A new mechanism is
// one more line here.
package all
