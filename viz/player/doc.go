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
// Questions. A step with a predict block is gated: at its start, forward
// moves (keys, buttons, play) do nothing until the question is answered
// (Answer) or skipped (Reveal); the explanation is shown once it is.
// Programmatic moves (Seek, the JS API) are not gated.
//
// Playing stops at the end of each step so a student reads the next text,
// and at a gated step start.
package player
