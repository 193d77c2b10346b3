package main

import (
	"fmt"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/leolab/leolab/cc"
	"github.com/spf13/cobra"
)

func newCCACmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "cca",
		Short: "Congestion-control algorithms",
	}
	c.AddCommand(&cobra.Command{
		Use:     "list",
		Short:   "List the congestion controls with their source and parameters",
		Example: "  leolab cca list",
		Args:    cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "NAME\tDESCRIPTION\tSOURCE\tPARAMS (default)")
			for _, name := range cc.Names() {
				info, _ := cc.Lookup(name)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, info.Description, info.Source, params(info.Params))
			}
			w.Flush()
		},
	})
	return c
}

func params(p map[string]float64) string {
	keys := make([]string, 0, len(p))
	for k := range p {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s=%g", k, p[k])
	}
	return strings.Join(parts, " ")
}
