// Package spillfile is where a run's event log spills (trace.Storage's
// Spill): a temporary file, unlinked as soon as it is made where the
// system allows it, so that it goes with the process whatever happens;
// Close removes it where unlinking an open file is refused. The engine
// opens no files: the programs that want spilling (`bufferlab run
// --summary`, `bench step`) pass Open in.
package spillfile
