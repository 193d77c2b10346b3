// Package repro001 owns the reproduction of seed 001 (NetScalpel, "Dissecting
// the StarLink: Characterizing Queuing and Flow Dynamics in the Starlink
// Network"): its measurement procedures as scenarios on the simulator's
// Starlink model, each finding read back from the probe packets by package
// probe, next to the number the paper reports and the value of the profile
// that was simulated, and the report that shows them side by side.
//
// A procedure only schedules and reads: it declares the runs (a probe
// pattern on a path), runs them, and hands their packets to the prober; it
// never looks inside the model. Its only knowledge of the link is what an
// earlier procedure inferred, as on a real dish: the reconfiguration
// schedule places the single-slot procedures after a boundary, the ramp's
// peak sizes the elephants, the burst's buffer feeds the PoP sweep. The
// profile's values serve only as the yardstick of each comparison, so a
// perturbed profile (Variant) tests that the inference is not hard-wired.
//
// Where the runs execute is a lab (lab.go): the simulator, or live
// through the emulator (live.go, Options.Engine "emu": the link
// procedures only, each run placed in its slot of the wall-clock
// schedule, with the tolerances widened only by what a run measured of
// the host's stalls, livetol.go).
//
// The findings follow the paper's numbering (seed 001, findings 1–24, as
// in ../shared/seeds/001_*.txt and profile/profiles/starlink.yaml).
package repro001
