package main

import (
	"fmt"
	"io"
	"maps"
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
				ps := params(info.Params)
				for _, f := range slices.Sorted(maps.Keys(info.Files)) { // file parameters: a path, no default
					ps = strings.TrimSpace(ps + " " + f + "=FILE")
				}
				fmt.Fprintf(w, "%s\t%s\t%s\t%s\n", name, info.Description, info.Source, ps)
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
