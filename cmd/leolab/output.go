package main

import (
	"encoding/json"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
	"github.com/spf13/cobra"
)

// printResult writes the human-readable summary of a run.
func printResult(out io.Writer, r *result.Result) {
	fmt.Fprintf(out, "%s  engine=%s seed=%d duration=%gs path=%s", r.Scenario, r.Engine, r.Seed, r.DurationS, r.Path.Profile)
	if r.Path.City != "" {
		fmt.Fprintf(out, "/%s/%s", r.Path.City, r.Path.Direction)
	}
	if r.Path.BaseRTTMs > 0 { // the net engine does not know it
		fmt.Fprintf(out, " base_rtt=%gms", r.Path.BaseRTTMs)
	}
	fmt.Fprintf(out, "  (%.2fs wall)\n\n", r.WallS)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "flow\tcca\tstart s\tMbit/s\tretrans\tretrans/GB\tRTOs\tmin RTT ms\tmean RTT ms\tp95 RTT ms\tRTT infl.\t")
	for _, f := range r.Flows {
		if f.CCA == "cbr" {
			fmt.Fprintf(w, "%d\tcbr\t%.1f\t%.2f\tlost %d/%d\t\t\towd mean %.2f\tp95 %.2f\t\t\t\n",
				f.ID, f.StartS, f.ThroughputMbps, f.LostPackets, f.SentPackets, f.MeanOWDMs, f.P95OWDMs)
			continue
		}
		fmt.Fprintf(w, "%d\t%s\t%.1f\t%.2f\t%d\t%.0f\t%d\t%.2f\t%.2f\t%.2f\t%.2f\t\n",
			f.ID, f.CCA, f.StartS, f.ThroughputMbps, f.Retransmits, f.RetransPerGB, f.RTOs,
			f.MinRTTMs, f.MeanRTTMs, f.P95RTTMs, f.RTTInflation)
	}
	w.Flush()
	fmt.Fprintln(out)
	for _, l := range r.Links {
		d := l.Drops
		fmt.Fprintf(out, "link %-8s delivered %.1f MB  drops: head %d tail %d aqm %d random %d outage %d policer %d\n",
			l.Name, float64(l.Delivered)/1e6, d.Head, d.Tail, d.AQM, d.Random, d.Outage, d.Policer)
	}
	if len(r.Fairness.Shares) > 1 {
		fmt.Fprintf(out, "fairness over %.0f–%.0fs: Jain %.3f, max–min %.3f\n",
			r.Fairness.WindowStartS, r.Fairness.WindowEndS, r.Fairness.Jain, r.Fairness.MaxMin)
	}
}

// writeResult writes a run's iperf3 logs when asked, then the result as JSON
// or as the human table (sim and emu share it).
func writeResult(cmd *cobra.Command, res *result.Result, iperfDir string, asJSON bool) error {
	if iperfDir != "" {
		paths, err := iperf.WriteDir(iperfDir, *res)
		if err != nil {
			return err
		}
		fmt.Fprintf(cmd.ErrOrStderr(), "wrote %d iperf3 JSON files to %s\n", len(paths), iperfDir)
	}
	out := cmd.OutOrStdout()
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(res)
	}
	printResult(out, res)
	return nil
}

// listCmd is a `list` subcommand that prints a table aligned in columns: the
// header line, then the tab-separated lines that rows writes.
func listCmd(short, example, header string, rows func(w io.Writer) error) *cobra.Command {
	return &cobra.Command{
		Use:     "list",
		Short:   short,
		Example: example,
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, header)
			if err := rows(w); err != nil {
				return err
			}
			return w.Flush()
		},
	}
}
