package campaign_test

import (
	"path/filepath"
	"testing"

	"github.com/leolab/leolab/campaign"
	_ "github.com/leolab/leolab/cc/all"
)

// The example campaign files load and expand, so the README's commands work.
func TestExampleCampaigns(t *testing.T) {
	files, _ := filepath.Glob("../examples/campaigns/*.yaml")
	if len(files) == 0 {
		t.Fatal("no example campaigns")
	}
	for _, file := range files {
		c, err := campaign.Load(file)
		if err != nil {
			t.Fatal(err)
		}
		runs, err := c.Expand()
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if len(runs) == 0 {
			t.Fatalf("%s: no runs", file)
		}
	}
}
