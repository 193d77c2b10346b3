package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/leolab/leolab/orbit"
	"github.com/spf13/cobra"
)

func newOrbitCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "orbit",
		Short: "Constellation geometry: serving satellite and path delay per slot",
		Example: `  leolab orbit path --from -37.85,145.11 --to -33.87,151.21
  leolab orbit path --from 32.72,-117.16 --to 40.71,-74.01 --mode isl --json`,
	}
	c.AddCommand(newOrbitPathCmd())
	return c
}

type orbitPathFlags struct {
	from, to, start, mode, policy, tle, shell, gateways string
	duration, slot                                      time.Duration
	minEl                                               float64
	json, csv                                           bool
}

func newOrbitPathCmd() *cobra.Command {
	var f orbitPathFlags
	c := &cobra.Command{
		Use:   "path --from LAT,LON --to LAT,LON",
		Short: "Print the per-slot one-way propagation delay schedule between two places",
		Long: `Print, per slot, the serving satellite, the route, its hops and its one-way
propagation delay (seed 000 eq. 13: space legs at c, fibre at c/1.47) from a
terminal at --from to a destination at --to, over Starlink shell 1 (Walker
72×22, 550 km, 53°) or the satellites of a TLE file (SGP4/SDP4).

bentpipe: terminal → serving satellite → the gateway it sees with the least
delay → fibre (great circle) to the destination. isl: terminal → serving
satellite → +Grid laser links (shortest by delay) → the gateway nearest the
destination → fibre. Satellites are usable above --min-elevation.`,
		Example: `  leolab orbit path --from -37.85,145.11 --to -33.87,151.21
  leolab orbit path --from 32.72,-117.16 --to 40.71,-74.01 --mode isl --policy sticky --duration 1h
  leolab orbit path --from -37.85,145.11 --to -33.87,151.21 --start 2026-04-01T10:00:00Z --json
  leolab orbit path --from -37.85,145.11 --to -33.87,151.21 --tle starlink.tle --csv
  leolab orbit path --from -37.85,145.11 --to -33.87,151.21 --gateways gateways.csv`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runOrbitPath(cmd, f) },
	}
	fl := c.Flags()
	fl.StringVar(&f.from, "from", "", "terminal position LAT,LON in degrees (required)")
	fl.StringVar(&f.to, "to", "", "destination position LAT,LON in degrees (required)")
	fl.StringVar(&f.start, "start", orbit.Epoch().Format(time.RFC3339), "first slot's start, RFC 3339")
	fl.DurationVar(&f.duration, "duration", 10*time.Minute, "length of the schedule")
	fl.DurationVar(&f.slot, "slot", orbit.DefaultSlot, "slot length: the serving satellite is chosen once per slot")
	fl.StringVar(&f.mode, "mode", "bentpipe", "path: bentpipe or isl")
	fl.StringVar(&f.policy, "policy", "highest", "serving satellite: highest (elevation), dwell (longest remaining), sticky")
	fl.StringVar(&f.tle, "tle", "", "propagate the satellites of this TLE file with SGP4/SDP4 instead of the Walker shell")
	fl.StringVar(&f.gateways, "gateways", "", "gateway sites file (name,lat,lon a line) instead of the built-in table")
	fl.StringVar(&f.shell, "shell", "starlink-1", "Walker shell without --tle ("+strings.Join(orbitShellNames(), ", ")+")")
	fl.Float64Var(&f.minEl, "min-elevation", orbit.DefaultMinElevation, "minimum elevation in degrees (seed 000: 25)")
	fl.BoolVar(&f.json, "json", false, "print the schedule as JSON")
	fl.BoolVar(&f.csv, "csv", false, "print the schedule as CSV")
	return c
}

func orbitShellNames() []string {
	var n []string
	for _, s := range orbit.StarlinkShells() {
		n = append(n, s.Name)
	}
	return n
}

// orbitConfig turns the flags into a path configuration and a source.
func orbitConfig(f orbitPathFlags) (orbit.Source, orbit.PathConfig, error) {
	var cfg orbit.PathConfig
	var err error
	if f.from == "" || f.to == "" {
		return nil, cfg, badInput("orbit path: --from and --to are required (LAT,LON in degrees, e.g. --from -37.85,145.11)")
	}
	if cfg.From, err = orbit.ParseLatLon(f.from); err != nil {
		return nil, cfg, badInput("orbit path: --from %v", err)
	}
	if cfg.To, err = orbit.ParseLatLon(f.to); err != nil {
		return nil, cfg, badInput("orbit path: --to %v", err)
	}
	if cfg.Start, err = time.Parse(time.RFC3339, f.start); err != nil {
		return nil, cfg, badInput("orbit path: --start %q: want RFC 3339, e.g. 2026-04-01T10:00:00Z", f.start)
	}
	if f.duration <= 0 {
		return nil, cfg, badInput("orbit path: --duration %v: want > 0, e.g. 10m", f.duration)
	}
	if f.slot <= 0 || f.slot > f.duration {
		return nil, cfg, badInput("orbit path: --slot %v: want 0 < slot ≤ --duration (%v), e.g. 15s", f.slot, f.duration)
	}
	if f.duration/f.slot > 100_000 {
		return nil, cfg, badInput("orbit path: --duration/--slot is %d slots, at most 100000", f.duration/f.slot)
	}
	if !(f.minEl > 0 && f.minEl < 90) { // NaN too
		return nil, cfg, badInput("orbit path: --min-elevation %v: want 0 < degrees < 90", f.minEl)
	}
	if cfg.Mode, err = orbit.ParseMode(f.mode); err != nil {
		return nil, cfg, badInput("orbit path: --mode: %v", err)
	}
	if cfg.Policy, err = orbit.ParsePolicy(f.policy); err != nil {
		return nil, cfg, badInput("orbit path: --policy: %v", err)
	}
	if f.json && f.csv {
		return nil, cfg, badInput("orbit path: --json and --csv: choose one")
	}
	cfg.Duration, cfg.Slot, cfg.MinElevation, cfg.Gateways = f.duration, f.slot, f.minEl, orbit.Gateways()
	if f.gateways != "" {
		if cfg.Gateways, err = orbit.ReadGatewaysFile(f.gateways); err != nil {
			return nil, cfg, badInput("orbit path: --gateways: %v", err)
		}
	}
	src, err := orbitSource(f, cfg.Mode)
	return src, cfg, err
}

func orbitSource(f orbitPathFlags, mode orbit.Mode) (orbit.Source, error) {
	if f.tle == "" {
		sh, err := orbit.ShellByName(f.shell)
		if err != nil {
			return nil, badInput("orbit path: --shell: %v", err)
		}
		return orbit.NewWalker(orbit.Epoch(), sh)
	}
	if mode == orbit.ISL {
		return nil, badInput("orbit path: --mode isl needs a Walker shell's links; it cannot be used with --tle (use --mode bentpipe)")
	}
	fh, err := os.Open(f.tle)
	if err != nil {
		return nil, badInput("orbit path: --tle: %v", err)
	}
	defer fh.Close()
	tles, err := orbit.ReadTLEs(fh, f.tle)
	if err != nil {
		return nil, badInput("orbit path: --tle %v", err)
	}
	set, err := orbit.NewTLESet(tles)
	if err != nil {
		return nil, badInput("orbit path: --tle %s: %v", f.tle, err)
	}
	return set, nil
}

func runOrbitPath(cmd *cobra.Command, f orbitPathFlags) error {
	src, cfg, err := orbitConfig(f)
	if err != nil {
		return err
	}
	slots, err := orbit.Schedule(src, cfg)
	if err != nil {
		return fmt.Errorf("orbit path: %w", err)
	}
	out := cmd.OutOrStdout()
	switch {
	case f.json:
		e := json.NewEncoder(out)
		e.SetIndent("", "  ")
		return e.Encode(struct {
			From   orbit.Site       `json:"from"`
			To     orbit.Site       `json:"to"`
			Mode   string           `json:"mode"`
			Policy string           `json:"policy"`
			Slot   string           `json:"slot"`
			MinEl  float64          `json:"min_elevation_deg"`
			Source string           `json:"source"`
			Slots  []orbit.SlotPath `json:"slots"`
		}{cfg.From, cfg.To, cfg.Mode.String(), cfg.Policy.String(), cfg.Slot.String(), cfg.MinElevation, orbitSourceName(f), slots})
	case f.csv:
		return orbit.WriteCSV(out, slots)
	}
	return printOrbitText(out, cfg, f, slots)
}

func orbitSourceName(f orbitPathFlags) string {
	if f.tle != "" {
		return "tle:" + f.tle
	}
	return "walker:" + f.shell
}

func printOrbitText(out io.Writer, cfg orbit.PathConfig, f orbitPathFlags, slots []orbit.SlotPath) error {
	fmt.Fprintf(out, "%s → %s  mode=%s policy=%s slot=%v min-elevation=%g° source=%s\n\n",
		cfg.From.Name, cfg.To.Name, cfg.Mode, cfg.Policy, cfg.Slot, cfg.MinElevation, orbitSourceName(f))
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, strings.Join(orbit.ColumnNames(), "\t")+"\t")
	for _, s := range slots {
		fmt.Fprintln(w, strings.Join(s.Row(), "\t")+"\t")
	}
	if err := w.Flush(); err != nil {
		return err
	}
	st := orbit.Summarise(slots)
	fmt.Fprintf(out, "\none-way delay min/median/max %.2f/%.2f/%.2f ms; %d route changes, %d outages in %d slots\n",
		float64(st.Min)/1e6, float64(st.Median)/1e6, float64(st.Max)/1e6, st.Changes, st.Outages, st.Slots)
	return nil
}
