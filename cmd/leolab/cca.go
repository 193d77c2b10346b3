package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/leolab/leolab/cc"
	"github.com/spf13/cobra"
)

func newCCACmd() *cobra.Command {
	c := &cobra.Command{
		Use:     "cca",
		Short:   "Congestion-control algorithms",
		Example: "  leolab cca list",
	}
	c.AddCommand(listCmd("List the congestion controls with their source and parameters", "  leolab cca list",
		"NAME\tDESCRIPTION\tSOURCE\tPARAMS (default)", func(w io.Writer) error {
			for _, name := range cc.Names() {
				info, _ := cc.Lookup(name)
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, info.Description, info.Source, params(info.Params))
			}
			return nil
		}))
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
