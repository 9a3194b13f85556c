// Package keymap is the one table of the app's keys, mouse actions and
// on-screen buttons: for each, where it applies (the menu, a lesson, the
// side-by-side scene, the drop race, fast mode) and what it does. The app
// handles input in viz/app/input.go and draws its buttons in viz/app;
// this table is their documentation, and the help overlay (LayoutHelp,
// pure layout, painted by the app) draws it.
//
// The table cannot drift from the code unnoticed: the package's test
// reads viz/app's source (it does not import it, so it runs without a
// display) and fails on a key handled there that the table lacks, on a
// key whose switch case is handled in a place the table says it does not
// apply, on a table entry no code handles, and on a button label drawn
// there that the table lacks, or the other way round.
package keymap
