package main

import (
	"fmt"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/repro001"
	"github.com/spf13/cobra"
)

// runReproduce001 is `leolab reproduce --paper 001`: seed 001's NetScalpel
// procedures on the simulator (or live through the emulator, --engine emu), each finding inferred from the probe
// packets next to the paper's number and the profile's value, for the
// default profile and the perturbed ones (package repro001), written as
// DIR/report.html with its figures and tables.
func runReproduce001(cmd *cobra.Command, f *reproduceFlags) error {
	if f.quick && f.full {
		return badInput("reproduce: --quick and --full exclude each other")
	}
	if len(f.ccas)+len(f.cities)+len(f.directions)+len(f.kinds)+len(f.figures) > 0 || f.duration != 0 || f.runs != 0 {
		return badInput("reproduce --paper 001: --ccas, --cities, --directions, --kinds, --duration and --runs apply to --paper 000 only")
	}
	live := f.engine == campaign.EngineEmu
	if live && f.full {
		return badInput("reproduce --paper 001: --full runs on --engine sim only: live, its 250 s light probes and 8-period slot probes on three profiles would take about an hour of wall clock; --engine emu runs the quick study (default profile)")
	}
	f.defaultOut("reproduce-001")
	if err := mkdirAll(f.out); err != nil {
		return err
	}
	stderr := cmd.ErrOrStderr()
	start := time.Now()
	if live {
		fmt.Fprintln(stderr, "leolab: --engine emu: the link procedures run live through the emulator (default profile, about 10 minutes); "+
			"the slow-start and recovery studies stay on sim and are left out: kernel TCP runs the kernel's CUBIC and BBR, not our HyStart variants, SaTCP, LeoCC or BBRv3")
	}
	st, err := repro001.Run(repro001.Options{Full: f.full, Engine: f.engine, Progress: func(v, p string) {
		fmt.Fprintf(stderr, "leolab: %5.0fs  %s: %s\n", time.Since(start).Seconds(), v, p)
	}})
	if err != nil {
		return err
	}
	size := "--quick"
	if f.full {
		size = "--full"
	}
	if live {
		size += " --engine emu"
	}
	rep, err := st.Report([]report.Meta{{Key: "leolab", Value: versionString()}, {Key: "command", Value: "leolab reproduce --paper 001 " + size}})
	if err != nil {
		return err
	}
	if err := report.Write(f.out, rep); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "profile\tquantities\twithin tolerance\t")
	failed := 0
	for _, vr := range st.Variants {
		n := len(vr.Failed())
		failed += n
		fmt.Fprintf(w, "%s\t%d\t%d\t\n", vr.Variant.Name, len(vr.Quantities), len(vr.Quantities)-n)
	}
	w.Flush()
	for _, vr := range st.Variants {
		for _, q := range vr.Failed() {
			fmt.Fprintf(out, "outside tolerance: %s: %s %s: inferred %.4g, profile %.4g (%s)\n", vr.Variant.Name, q.Direction, q.Name, q.Inferred, q.Profile, q.Tolerance())
		}
	}
	fmt.Fprintf(out, "report: %s\n", filepath.Join(f.out, report.HTMLFile))
	if failed > 0 {
		return fmt.Errorf("reproduce --paper 001: %d quantities outside their tolerance (the report lists them)", failed)
	}
	return nil
}
