package main

import "github.com/spf13/cobra"

// runReproduce001 is `leolab reproduce --paper 001`, seed 001's NetScalpel
// procedures through the model. A placeholder until that work lands (issue
// 20): it refuses with a usage error (exit 2) rather than pretend to run.
func runReproduce001(_ *cobra.Command, _ *reproduceFlags) error {
	return badInput("reproduce --paper 001: seed 001's figures are not yet built (allowed now: 000)")
}
