package main

import (
	"fmt"
	"os"
	"time"

	"github.com/leolab/leolab/capture"
	"github.com/leolab/leolab/netsim"
	"github.com/leolab/leolab/scenario"
	"github.com/spf13/cobra"
)

type simFlags struct {
	file      string
	json      bool
	iperfDir  string
	quick     quickFlags
	noProgres bool
	force     bool
	pcapDir   string
}

func newSimCmd() *cobra.Command {
	var f simFlags
	c := &cobra.Command{
		Use:   "sim [-f scenario.yaml | quick flags]",
		Short: "Run a scenario on the deterministic packet-level simulator",
		Long: `Run a scenario on the simulator. Give a scenario file with -f, or describe a
fixed dumbbell with flags. Same scenario and seed give byte-identical --json
output (apart from wall_s).`,
		Example: `  leolab sim -f examples/dumbbell-cubic.yaml
  leolab sim --rate 100Mbps --rtt 50ms --queue 417 --cca cubic --duration 60s
  leolab sim --rate 20Mbps --rtt 50ms --loss 0.005 --cca reno --duration 120s --json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			sc, err := f.scenario(cmd)
			if err != nil {
				return err
			}
			if !f.force {
				if err := sc.CheckBudget(true); err != nil {
					return err
				}
			}
			return runSim(cmd, sc, &f)
		},
	}
	c.Flags().StringVarP(&f.file, "file", "f", "", "scenario file (YAML, version 1)")
	c.Flags().BoolVar(&f.json, "json", false, "print the result as JSON (the result schema of DESIGN.md)")
	c.Flags().StringVar(&f.iperfDir, "iperf3-json", "", "also write one iperf3-compatible JSON per flow into `DIR`")
	c.Flags().StringVar(&f.pcapDir, "pcap", "", "write server.pcap and client.pcap (each end's packets, TCP/IPv4 headers) into `DIR`")
	c.Flags().BoolVar(&f.noProgres, "no-progress", false, "do not show progress on stderr")
	c.Flags().BoolVar(&f.force, "force", false, "run even when the estimated memory (4 GB) or packet count (2e9) is over budget")
	f.quick.register(c)
	return c
}

func (f *simFlags) scenario(cmd *cobra.Command) (*scenario.Scenario, error) {
	if f.file != "" {
		if changed := f.quick.changed(cmd); changed != "" {
			return nil, badInput("sim: --%s cannot be combined with -f (edit the scenario file instead)", changed)
		}
		sc, err := scenario.Load(f.file)
		if os.IsNotExist(err) {
			return nil, badInput("sim: %v", err)
		}
		return sc, err
	}
	return f.quick.scenario()
}

func runSim(cmd *cobra.Command, sc *scenario.Scenario, f *simFlags) error {
	spec, err := sc.Spec()
	if err != nil {
		return err
	}
	start := time.Now()
	var progress netsim.Progress
	if stderr, ok := progressTerminal(cmd, f.noProgres, sc.Duration); ok {
		progress = func(simulated, total time.Duration) {
			el := time.Since(start)
			fmt.Fprintf(stderr, "\rsimulated %v / %v (%.0f×real time)   ", simulated.Round(time.Second), total, simulated.Seconds()/el.Seconds())
			if simulated >= total {
				fmt.Fprintln(stderr)
			}
		}
	}
	var tap *capture.Sim
	if f.pcapDir != "" {
		if tap, err = capture.NewSim(f.pcapDir, &spec); err != nil {
			return badInput("sim: --pcap: %v", err)
		}
		spec.Tap = tap
	}
	res, err := netsim.RunProgress(spec, progress)
	if tap != nil {
		if cerr := tap.Close(); err == nil && cerr != nil {
			return fmt.Errorf("sim: --pcap: %w", cerr)
		}
	}
	if err != nil {
		return err
	}
	res.WallS = time.Since(start).Seconds()
	res.Version = versionString()
	return writeResult(cmd, res, f.iperfDir, f.json)
}

// progressTerminal returns stderr when progress of a run of length total
// should be shown there: not turned off, a terminal, and 10 s or longer.
func progressTerminal(cmd *cobra.Command, off bool, total time.Duration) (*os.File, bool) {
	stderr, ok := cmd.ErrOrStderr().(*os.File)
	if off || !ok || !isTerminal(stderr) || total < 10*time.Second {
		return nil, false
	}
	return stderr, true
}

func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
