// Package enum prints and parses the engine's small enumerations whose
// values run from 0 and whose names sit in a table indexed by value (forks,
// drop strategies, SLRU variants, transaction statuses, trace kinds...):
// Name is what their String methods print, Parse what their Parse
// functions do. A value past the table prints as kind(n), so that a
// corrupt or future value in a trace still shows what it is. Neither
// allocates for a value in the table; Parse is a linear search, which for
// tables of at most a few dozen names costs less than a map.
package enum
