// Package all links every fast-mode experiment into a program: importing
// it (for its side effects) registers limits, pool, pin, drop, slru and
// fsm with package exp, where exp.Lookup and exp.Names find them.
package all
