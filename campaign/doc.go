// Package campaign owns campaigns: sweeps of scenario runs described by a
// campaign file (YAML, version 1: a scenario template — its path and
// optionally its flows — plus axes cca, city, direction and kind, sweeps over
// any other scenario field or profile parameter, a number of runs or a list
// of seeds, a seed-drawn start jitter, a duration and an engine), their
// expansion into runs with stable ids, the executors that run
// them (a local pool on every core, and a distributed one on NATS JetStream
// with `leolab worker` processes), the SQLite results store that makes a
// killed campaign resumable, and the built-in seed-000 campaign with its
// side-by-side comparison against the real Starlink measurements embedded in
// realdata/.
//
// The package never prints on its own: progress goes to a callback (a
// ProgressPrinter renders it), and the caller chooses where reports go.
package campaign
