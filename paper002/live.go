package paper002

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/leolab/leolab/campaign"
)

// The study on the live emulator (Options.Engine = EngineEmu): the
// figures whose scenarios the emulator runs (one path per direction: a
// fixed link, its schedule, a replayed LeoEM path, any queue discipline;
// emu.FromSpec) run live with kernel TCP, one run at a time on the wall
// clock; the others say why they stay on the simulator (Figure.SimOnly).

// Engines of the study.
const (
	EngineSim = campaign.DefaultEngine
	EngineEmu = campaign.EngineEmu
)

// Why a figure runs on the simulator only: the live emulator has one path
// per direction and cannot route packets by scenario flow (emu's
// errTopology), so flows with their own RTT, own links or moves do not run
// live.
const (
	simOnlyPerFlowRTT = "its two flows have different RTTs (flows[1].extra_rtt): the live emulator has one path per direction for every flow and cannot route packets by scenario flow"
	simOnlyTopology   = "its flows cross different links of the parking lot: the live emulator has one path per direction and cannot route packets by scenario flow"
	simOnlyMoves      = "two flows move between paths during the run: the live emulator has one path per direction and cannot route packets by scenario flow"
)

// Live sizes and schemes.
const (
	// LiveRuns is the runs per point on the emulator: the fewest that give
	// a t-based interval with a finite half width worth reading
	// (t_{0.975,2} = 4.30), at about 17 minutes for the default figures
	// (fig1: 2 schemes × 3 × 30 s; fig9c: 8 disciplines × 2 schemes × 3 ×
	// 20 s; a few seconds of set-up per run).
	LiveRuns = 3
)

// LiveCCAs are the schemes on the emulator: the kernel's own (emu.KernelCCA:
// cubic is tcp_cubic.c, bbr1 is mainline Linux's tcp_bbr.c, BBR v1). The
// kernel has no SaTCP, BBRv3, Vivace, Orca, Astraea or Sage; leolab's versions of those would
// run on its own transport over UDP, which is not what the figure's
// kernel-TCP comparison is about.
var LiveCCAs = []string{"cubic", "bbr1"}

// LiveFigures are the figures a live study runs unless told which: the
// LeoEM path (acceptance 4 of issue 19: the path replayed live) and the
// five flows under each AQM (our queue disciplines in the pump). Figs. 2,
// 3, 4 and the loss check also run live when asked (--figures); the step
// figures' 120 s timeline makes them 12 minutes each.
var LiveFigures = []string{"fig1", "fig9c"}

// checkEngine validates opt's engine and, for the emulator, its figures.
func checkEngine(opt *Options) error {
	switch opt.Engine {
	case "":
		opt.Engine = EngineSim
		return nil
	case EngineSim:
		return nil
	case EngineEmu:
	default:
		return fmt.Errorf("paper002: engine %q: allowed values are %s and %s", opt.Engine, EngineSim, EngineEmu)
	}
	if opt.Full {
		return errors.New("paper002: engine emu runs the quick study only: the paper's scale (10 runs × 300 s per point) would take days of wall clock live; run --full on sim")
	}
	if len(opt.Figures) == 0 {
		opt.Figures = LiveFigures
	}
	for _, f := range Figures() {
		if f.SimOnly != "" && slices.Contains(opt.Figures, f.ID) {
			return fmt.Errorf("paper002: %s does not run on engine emu: %s; run it with --engine sim (live figures: %s)", f.ID, f.SimOnly, strings.Join(liveIDs(), ", "))
		}
	}
	if len(opt.CCAs) == 0 {
		opt.CCAs = LiveCCAs
	}
	return nil
}

// liveSize sizes a figure's campaign for the emulator.
func liveSize(f *Figure, c *campaign.Campaign) {
	c.Engine = EngineEmu
	if f.LiveDuration > 0 {
		c.Duration = f.LiveDuration
	}
}

// liveIDs are the figures that run live.
func liveIDs() []string {
	var out []string
	for _, f := range Figures() {
		if f.SimOnly == "" && !slices.Contains(out, f.ID) {
			out = append(out, f.ID)
		}
	}
	return out
}
