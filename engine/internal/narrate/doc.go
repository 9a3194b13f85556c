// Package narrate holds what the engine packages' captions share: a
// bounded look back through an event log (for a caption that names an
// earlier event), lock holders and lists in words, plurals. It is pure and
// allocates only the strings it returns.
//
// A caption is one short plain-English sentence (or two) about one event,
// written from the event's own values and, where that makes it exact, from
// a few earlier events found with Back: who changed a word first, which
// page a write makes room for. The engine packages write them
// (bufmgr.Caption, slru.Caption, fsm.Caption); scenario.Caption dispatches
// by the class's owner.
package narrate
