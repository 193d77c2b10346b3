package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/leolab/leolab/report"
	"github.com/spf13/cobra"
)

// execFlags choose where a campaign's runs execute and are stored.
type execFlags struct {
	store      string
	workers    int
	natsURL    string
	ackWait    time.Duration
	noProgress bool
}

func (f *execFlags) register(c *cobra.Command) {
	addStoreFlag(c, &f.store)
	fl := c.Flags()
	fl.IntVar(&f.workers, "workers", 0, "runs at once on this machine (0: all cores)")
	fl.StringVar(&f.natsURL, "nats", "", "run on `leolab worker` processes through NATS JetStream at `URL`")
	fl.DurationVar(&f.ackWait, "ack-wait", campaign.DefaultAckWait, "with --nats: redeliver a run whose worker is silent this long")
	fl.BoolVar(&f.noProgress, "no-progress", false, "do not show progress on stderr")
}

// check rejects contradictory flags.
func (f *execFlags) check(cmd *cobra.Command) error {
	if cmd.Flags().Changed("workers") && f.natsURL != "" {
		return badInput("%s: --workers and --nats exclude each other (workers are set on each `leolab worker`)", cmd.CommandPath())
	}
	if f.workers < 0 {
		return badInput("%s: --workers %d: must be >= 0", cmd.CommandPath(), f.workers)
	}
	return nil
}

func newCampaignCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "campaign",
		Short: "Sweeps of scenario runs: run them (locally or on NATS workers), show status, report",
		Long: `A campaign file is a scenario template swept over axes (cca, city, direction,
kind dedicated|concurrent) and seeds. Finished runs go to a SQLite store; running
the campaign again after an interruption runs only what is missing.

  version: 1
  name: my-sweep
  duration: 120s
  runs: 3                    # seeds 1..3 (or seeds: [4, 8])
  template: {path: {profile: starlink}}
  axes:
    cca: [cubic, bbr]
    city: [sydney, london]
    direction: [downlink, uplink]
    kind: [dedicated, concurrent]`,
		Example: `  leolab campaign run examples/campaigns/small.yaml
  leolab campaign status examples/campaigns/small.yaml
  leolab campaign report examples/campaigns/small.yaml --out /tmp/small`,
	}
	c.AddCommand(newCampaignRunCmd(), newCampaignStatusCmd(), newCampaignReportCmd())
	return c
}

func newCampaignRunCmd() *cobra.Command {
	var f execFlags
	c := &cobra.Command{
		Use:   "run SPEC",
		Short: "Run the campaign's missing runs and store them",
		Example: `  leolab campaign run sweep.yaml
  leolab campaign run sweep.yaml --workers 2 --store /data/sweep.db
  leolab campaign run sweep.yaml --nats nats://10.0.0.1:4222`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := f.check(cmd); err != nil {
				return err
			}
			return withCampaign(args[0], f.store, false, func(c *campaign.Campaign, runs []campaign.Run, st *campaign.Store) error {
				sum, err := executeCampaign(cmd, runs, st, &f)
				printSummary(cmd.OutOrStdout(), c, st, sum)
				return err
			})
		},
	}
	f.register(c)
	return c
}

func newCampaignStatusCmd() *cobra.Command {
	var store string
	c := &cobra.Command{
		Use:     "status SPEC",
		Short:   "Show how many of the campaign's runs are stored",
		Example: "  leolab campaign status sweep.yaml",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withCampaign(args[0], store, true, func(c *campaign.Campaign, runs []campaign.Run, st *campaign.Store) error {
				return printStatus(cmd, c, runs, st)
			})
		},
	}
	addStoreFlag(c, &store)
	return c
}

// printStatus prints how many of the runs are stored, in total and by kind
// and direction.
func printStatus(cmd *cobra.Command, c *campaign.Campaign, runs []campaign.Run, st *campaign.Store) error {
	done, err := st.Done(cmd.Context())
	if err != nil {
		return err
	}
	byKind := map[string][2]int{}
	stored := 0
	for _, r := range runs {
		k := strings.Trim(r.Kind+" "+r.Direction, " ")
		n := byKind[k]
		n[1]++
		if done[r.ID] {
			n[0]++
			stored++
		}
		byKind[k] = n
	}
	out := cmd.OutOrStdout()
	fmt.Fprintf(out, "campaign %s (store %s): %d runs, %d stored, %d pending\n", c.Name, st.Path(), len(runs), stored, len(runs)-stored)
	for _, k := range sortedKeys(byKind) {
		fmt.Fprintf(out, "  %-22s %d/%d\n", k, byKind[k][0], byKind[k][1])
	}
	return nil
}

func newCampaignReportCmd() *cobra.Command {
	var store, out string
	c := &cobra.Command{
		Use:   "report SPEC",
		Short: "Write the campaign's report (HTML, CSV) from its stored runs",
		Long: `Writes DIR/report.html (tables and figures, with the real seed-000 Starlink
measurements beside the simulated ones where they exist), DIR/results.csv (one
row per kind, direction, city and CCA) and DIR/flows.csv (every stored flow).`,
		Example: "  leolab campaign report sweep.yaml --out sweep-report",
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withCampaign(args[0], store, true, func(c *campaign.Campaign, runs []campaign.Run, st *campaign.Store) error {
				if out == "" {
					out = strings.TrimSuffix(args[0], filepath.Ext(args[0])) + "-report"
				}
				return writeReport(cmd, reportJob{c: c, runs: runs, st: st, dir: out, title: "leolab campaign " + c.Name})
			})
		},
	}
	addStoreFlag(c, &store)
	c.Flags().StringVar(&out, "out", "", "output directory (default: the campaign file's name with -report)")
	return c
}

// loadCampaign reads and expands a campaign file; its problems are bad
// input (exit 2).
func loadCampaign(file string) (*campaign.Campaign, []campaign.Run, error) {
	c, err := campaign.Load(file)
	if err == nil {
		var runs []campaign.Run
		if runs, err = c.Expand(); err == nil {
			return c, runs, nil
		}
	}
	var ce *campaign.Error
	if errors.As(err, &ce) || errors.Is(err, os.ErrNotExist) {
		return nil, nil, usageError{err}
	}
	return nil, nil, err
}

// addStoreFlag adds --store, the SQLite results store of a campaign.
func addStoreFlag(c *cobra.Command, store *string) {
	c.Flags().StringVar(store, "store", "", "SQLite results store (default: the campaign file with .db)")
}

// openStore opens the store at path, or by default the campaign file's
// name with .db; existing says it must be there already (status and
// report read it: a mistyped --store must not report an empty campaign).
// A store file that is empty, truncated or not SQLite is bad input.
func openStore(path, spec string, existing bool) (*campaign.Store, error) {
	if path == "" {
		path = strings.TrimSuffix(spec, filepath.Ext(spec)) + ".db"
	}
	open := campaign.OpenStore
	if existing {
		open = campaign.OpenExistingStore
	}
	st, err := open(path)
	return st, storeInputError(err)
}

// storeInputError marks the store file's own problems as bad input (exit
// 2); a missing store gets the likely reasons.
func storeInputError(err error) error {
	switch {
	case errors.Is(err, campaign.ErrStoreMissing):
		return badInput("%v (check --store; `leolab campaign run` creates the store with the first run)", err)
	case errors.Is(err, campaign.ErrStoreEmpty), errors.Is(err, campaign.ErrStoreTruncated), errors.Is(err, campaign.ErrStoreNotSQLite):
		return badInput("%v", err)
	}
	return err
}

// withCampaign loads and expands the campaign file, opens its store (store,
// or the default of openStore) and calls fn; the store is closed after.
func withCampaign(file, store string, existing bool, fn func(*campaign.Campaign, []campaign.Run, *campaign.Store) error) error {
	c, runs, err := loadCampaign(file)
	if err != nil {
		return err
	}
	st, err := openStore(store, file, existing)
	if err != nil {
		return err
	}
	defer st.Close()
	return fn(c, runs, st)
}

// executeCampaign runs the runs not yet stored, locally or on NATS workers,
// with a progress display on stderr. Ctrl-C stops handing out runs.
func executeCampaign(cmd *cobra.Command, runs []campaign.Run, st *campaign.Store, f *execFlags) (campaign.Summary, error) {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var exec campaign.Executor = campaign.Pool{Workers: f.workers, Version: versionString()}
	if f.natsURL != "" {
		exec = campaign.Distributed{URL: f.natsURL, AckWait: f.ackWait, Key: campaign.CampaignKey(runs)}
	}
	opt := campaign.Options{Version: versionString()}
	if !f.noProgress {
		stderr := cmd.ErrOrStderr()
		tty := false
		if file, ok := stderr.(*os.File); ok {
			tty = isTerminal(file)
		}
		opt.Progress = campaign.NewProgressPrinter(stderr, tty).Print
	}
	sum, err := campaign.Execute(ctx, runs, st, exec, opt)
	if err != nil && ctx.Err() != nil && cmd.Context().Err() == nil {
		return sum, fmt.Errorf("%w after %d of %d runs (rerun to resume)", errInterrupted, sum.Skipped+sum.Ran, sum.Total)
	}
	return sum, err
}

func printSummary(out io.Writer, c *campaign.Campaign, st *campaign.Store, s campaign.Summary) {
	fmt.Fprintf(out, "campaign %s: %d runs: %d stored before, %d ran, %d failed in %v (store %s)\n",
		c.Name, s.Total, s.Skipped, s.Ran, s.Failed, s.Wall.Round(time.Millisecond), st.Path())
	if s.Ran > 0 {
		fmt.Fprintf(out, "  %.0f runs per hour on this machine\n", float64(s.Ran)/s.Wall.Hours())
	}
	if s.Stale > 0 {
		fmt.Fprintf(out, "  warning: %s\n", staleWarning(s.Stale, st.Path()))
	}
}

// staleWarning says that stored runs came from another build.
func staleWarning(n int, store string) string {
	return fmt.Sprintf("%d of the stored runs were made by another leolab version (this is %s) and are reused as they are; delete %s to run them with this one", n, versionString(), store)
}

// reportJob is one report to write.
type reportJob struct {
	c     *campaign.Campaign
	runs  []campaign.Run
	st    *campaign.Store
	dir   string
	title string
	notes []string
	extra []report.Section // sections after the campaign's (reproduce --paper 000's figures)
}

// writeReport compares the stored runs with the real data and writes
// report.html, results.csv and flows.csv into the job's directory; the rank
// correlations go to stdout.
func writeReport(cmd *cobra.Command, j reportJob) error {
	ctx := cmd.Context()
	ids := make(map[string]bool, len(j.runs))
	for _, r := range j.runs {
		ids[r.ID] = true
	}
	flows, err := j.st.Flows(ctx, ids)
	if err != nil {
		return err
	}
	realRuns, err := campaign.RealRuns()
	if err != nil {
		return err
	}
	rows := campaign.Compare(flows, campaign.RealMeans(realRuns))
	ceilings := campaign.Ceilings(rows, campaign.RealSpreads(realRuns))
	rep, err := campaign.BuildReport(campaign.ReportInput{Title: j.title, Campaign: j.c, Rows: rows, Notes: j.notes, Ceilings: ceilings,
		Meta: []report.Meta{{Key: "leolab", Value: versionString()}, {Key: "store", Value: j.st.Path()},
			{Key: "stored runs", Value: fmt.Sprintf("%d of %d", countStored(flows), len(j.runs))}}})
	if err != nil {
		return err
	}
	if sec, ok := campaign.SweepSection(j.c, j.runs, flows); ok {
		rep.Sections = append(rep.Sections, sec)
	}
	rep.Sections = append(rep.Sections, j.extra...)
	if err := report.Write(j.dir, rep); err != nil {
		return err
	}
	if err := writeCSVFile(filepath.Join(j.dir, "results.csv"), func(w io.Writer) error {
		t := campaign.ResultsTable("results", "results", rows)
		return report.WriteCSV(w, &t)
	}); err != nil {
		return err
	}
	if err := writeCSVFile(filepath.Join(j.dir, "flows.csv"), func(w io.Writer) error {
		return j.st.ExportCSV(ctx, w, ids)
	}); err != nil {
		return err
	}
	out := cmd.OutOrStdout()
	fmt.Fprintln(out, "fidelity (Spearman of per-CCA mean throughput, sim vs real, 5 cities, without ccp):")
	for _, f := range campaign.Spearman(rows) {
		fmt.Fprintln(out, "  "+f.String())
	}
	if mags := campaign.Magnitudes(rows); len(mags) > 0 {
		fmt.Fprintln(out, "magnitude (per city and CCA, sim vs the real 5-run means):")
		for _, m := range mags {
			fmt.Fprintln(out, "  "+m.String())
		}
		fmt.Fprintln(out, campaign.CeilingNote)
		for _, c := range ceilings {
			fmt.Fprintln(out, "  "+c.String())
		}
	}
	fmt.Fprintf(out, "wrote %s, results.csv, flows.csv\n", filepath.Join(j.dir, report.HTMLFile))
	return nil
}

func countStored(flows []campaign.FlowRow) int {
	runs := map[string]bool{}
	for _, f := range flows {
		runs[f.RunID] = true
	}
	return len(runs)
}

func writeCSVFile(path string, write func(io.Writer) error) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return fmt.Errorf("%s: %w", path, err)
	}
	return f.Close()
}

func sortedKeys(m map[string][2]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

func mkdirAll(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("output directory: %w", err)
	}
	return nil
}
