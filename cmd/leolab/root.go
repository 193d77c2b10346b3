package main

import (
	"errors"
	"strings"

	"github.com/spf13/cobra"
)

var errInterrupted = errors.New("interrupted")

func newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "leolab",
		Short: "TCP congestion control over LEO satellite paths (Starlink first)",
		Long: `leolab simulates, emulates and measures TCP congestion control over LEO
satellite paths. Start with:

  leolab sim -f examples/dumbbell-cubic.yaml
  leolab sim --rate 100Mbps --rtt 50ms --queue 417 --cca cubic --duration 60s
  leolab cca list`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newReproduceCmd(), newCalibrateCmd(), newSimCmd(), newEmuCmd(), newShellCmd(), newAnalyzeCmd(),
		newCampaignCmd(), newWorkerCmd(), newProbeCmd(), newNetCmd(), newLearnCmd(), newCCACmd(), newProfileCmd(), newVersionCmd())
	root.AddCommand(newOrbitCmd())
	root.AddCommand(newTraceCmd())
	// cobra adds its completion command at Execute; adding it now lets it
	// carry an example like every other command.
	root.InitDefaultCompletionCmd()
	if c, _, err := root.Find([]string{"completion"}); err == nil && c.Name() == "completion" {
		c.Example = `  leolab completion bash > /etc/bash_completion.d/leolab
  source <(leolab completion zsh)`
	}
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return badInput("%s: %v (see %s --help)", c.CommandPath(), err, c.CommandPath())
	})
	return root
}

// isCobraUsage recognises cobra's own argument errors (unknown command,
// wrong number of arguments), which are usage errors.
func isCobraUsage(err error) bool {
	msg := err.Error()
	return strings.HasPrefix(msg, "unknown command") || strings.Contains(msg, "arg(s)") ||
		strings.HasPrefix(msg, "unknown flag") || strings.HasPrefix(msg, "unknown shorthand flag")
}
