package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/leolab/leolab/profile"
	"github.com/spf13/cobra"
)

func newProfileCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "profile",
		Short: "Path profiles: the Starlink model's parameters, fixed links, cities",
	}
	c.AddCommand(&cobra.Command{
		Use:     "list",
		Short:   "List the built-in profiles and the Starlink city profiles",
		Example: "  leolab profile list",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "PROFILE\tCITY\tIDLE RTT")
			for _, name := range profile.Names() {
				fmt.Fprintf(w, "%s\t\t\n", name)
			}
			for _, city := range profile.Cities() {
				rtt, err := profile.CityIdleRTT(city)
				if err != nil {
					return err
				}
				fmt.Fprintf(w, "%s\t%s\t%v\n", profile.NameStarlink, city, rtt)
			}
			return w.Flush()
		},
	})
	var city string
	show := &cobra.Command{
		Use:   "show NAME",
		Short: "Print a profile's resolved parameters as YAML (usable as overrides)",
		Example: `  leolab profile show starlink
  leolab profile show starlink --city tokyo
  leolab profile show fixed`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			text, err := profile.Show(args[0], city)
			if err != nil {
				return badInput("profile show: %v", err)
			}
			fmt.Fprint(cmd.OutOrStdout(), text)
			if !strings.HasSuffix(text, "\n") {
				fmt.Fprintln(cmd.OutOrStdout())
			}
			return nil
		},
	}
	show.Flags().StringVar(&city, "city", "", "apply a city profile ("+strings.Join(profile.Cities(), ", ")+")")
	c.AddCommand(show)
	return c
}
