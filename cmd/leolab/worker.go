package main

import (
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/leolab/leolab/campaign"
	"github.com/spf13/cobra"
)

func newWorkerCmd() *cobra.Command {
	var w campaign.Worker
	c := &cobra.Command{
		Use:   "worker --nats URL",
		Short: "Process campaign runs from NATS JetStream until interrupted",
		Long: `Pulls runs from the JetStream work queue that ` + "`leolab campaign run --nats`" + ` and
` + "`leolab reproduce --nats`" + ` fill, runs them on this machine and publishes the results.
A run is acknowledged only after its result is in JetStream; if this worker dies,
the run is redelivered to another worker after the campaign's --ack-wait.`,
		Example: "  leolab worker --nats nats://10.0.0.1:4222 --workers 2",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if w.URL == "" {
				return badInput("worker: --nats URL is required")
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			w.Version = versionString()
			stderr := cmd.ErrOrStderr()
			w.Log = func(line string) { fmt.Fprintln(stderr, time.Now().Format(time.TimeOnly)+" "+line) }
			fmt.Fprintf(stderr, "leolab worker: waiting for runs on %s\n", w.URL)
			return w.Serve(ctx)
		},
	}
	fl := c.Flags()
	fl.StringVar(&w.URL, "nats", "", "NATS server `URL`, e.g. nats://127.0.0.1:4222")
	fl.IntVar(&w.Workers, "workers", 0, "runs at once (0: all cores)")
	fl.StringVar(&w.Name, "name", "", "name in results and logs (default host:pid)")
	fl.DurationVar(&w.IdleExit, "idle-exit", 0, "exit after this long without a run (0: never)")
	return c
}
