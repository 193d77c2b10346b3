package repro001

import (
	"time"

	"github.com/leolab/leolab/result"
)

// lab is where a procedure's runs execute: the simulator (simLab) or the
// live emulator (liveLab, live.go). A procedure declares a run and reads
// its packets; the lab decides only how the run meets the wall clock.
type lab interface {
	// engine names the lab as result.Result.Engine does: "sim" or "emu".
	engine() string
	// exec runs r and returns its packets and series.
	exec(r run) (*result.Result, error)
	// lightDuration is the light probe's length in this lab.
	lightDuration() time.Duration
	// schedule tells the lab the reconfiguration period the light probe
	// inferred: a live lab places every later run in the right place of
	// a slot with it (a simulated run's epoch places it already).
	schedule(period time.Duration)
	// tolerate widens the tolerances by the lab's measured timing error
	// (livetol.go); the simulator has none.
	tolerate(qs []Quantity) []Quantity
	// stalls lists the runs the host held beyond what their checks
	// tolerate (none on the simulator).
	stalls() []string
}

// simLab runs on the simulator: r.epoch is t = 0 on the simulated wall
// clock, so the same scenario gives the same packets.
type simLab struct{}

func (simLab) engine() string                     { return "sim" }
func (simLab) exec(r run) (*result.Result, error) { return r.simulate() }
func (simLab) lightDuration() time.Duration       { return lightDuration }
func (simLab) schedule(time.Duration)             {}
func (simLab) tolerate(qs []Quantity) []Quantity  { return qs }
func (simLab) stalls() []string                   { return nil }
