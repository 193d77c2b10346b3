package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/leolab/leolab/profile"
	"github.com/spf13/cobra"
)

func newProfileCmd() *cobra.Command {
	c := &cobra.Command{
		Use:   "profile",
		Short: "Path profiles: the Starlink model's parameters, fixed links, cities",
		Example: `  leolab profile list
  leolab profile show starlink --city tokyo`,
	}
	c.AddCommand(listCmd("List the built-in profiles and the Starlink city profiles", "  leolab profile list",
		"PROFILE\tCITY\tIDLE RTT", func(w io.Writer) error {
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
			return nil
		}))
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
