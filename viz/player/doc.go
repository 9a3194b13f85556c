// Package player is the lesson player's logic, without any drawing: a
// played lesson (or a bare scenario), its timeline, the current step, and
// the predict-then-reveal questions.
//
// Position. The player is at step K and event position P, with
// StepStart[K] ≤ P ≤ StepEnd[K]. Stepping forward past the end of a step
// enters the next one (showing its prose) before any of its events run;
// stepping back past a step's start returns to the previous step's end.
// Steps without events are visited too, so every page of a lesson is seen.
//
// Stops. A lesson's player stops on key moments (Stops, from the lesson's
// at: lines and ```stops blocks, as lessons.Play found them): playing, and
// a move of several events, stop at the position whose next event, in the
// stop's pane, is the moment (every pane is at that position). → applies
// the moment's event; Space (Toggle) and Continue apply it and play on.
// AtStop and StopCaption say where the player stands.
//
// Questions. A step's question is asked at the stop of its moment (its
// at:; a question at: none, in a step that runs nothing, as the step
// opens): Question is nil before it. There the player is gated: forward
// moves (keys, buttons, play, Continue) do nothing until the question is
// answered (Answer) or skipped (Reveal); the explanation is shown once it
// is. Programmatic moves (Seek, GotoStep, NextStep, the JS API's seek) are
// not gated.
//
// Playing stops at the end of each step so a student reads the next text,
// at each stop, and at a gated question. Speeds run from one event a
// second to 64× (the timeline's); with auto-slow on (the default,
// SetAutoSlow) the events near any pane's key moment play a few speed
// steps slower (SpeedAt), in lessons and bare scenarios alike. Tick counts
// time in whole units (unitsPerSecond), so playing is exact and
// deterministic.
package player
