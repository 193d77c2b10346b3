package main

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// Every command has an Example whose lines each run that command (cobra's
// help command and the shell-specific completion scripts, documented in
// their Long text by cobra, are left out).
func TestEveryCommandHasExample(t *testing.T) {
	var walk func(c *cobra.Command)
	n := 0
	walk = func(c *cobra.Command) {
		path := c.CommandPath()
		if c.Name() == "help" || c.HasParent() && c.Parent().Name() == "completion" {
			return
		}
		n++
		for _, l := range strings.Split(c.Example, "\n") {
			if !strings.Contains(l, path) {
				t.Errorf("%s: example line %q does not run %q", path, l, path)
			}
		}
		if strings.TrimSpace(c.Example) == "" {
			t.Errorf("%s: no example", path)
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	root := newRoot()
	for _, c := range root.Commands() {
		walk(c)
	}
	// 16 top-level commands, completion, and the subcommands of campaign
	// (3), cca (1), profile (2), net (2), learn (5), orbit (1) and trace (1).
	if n != 32 {
		t.Errorf("walked %d commands, want 32", n)
	}
}
