package analyze

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/leolab/leolab/report"
)

// externalRef matches anything that would make a browser fetch a resource:
// src/href/xlink:href to a URL, CSS url() or @import of one, scripts,
// stylesheets links, iframes. (SVG's xmlns namespace names are not fetched.)
var externalRef = regexp.MustCompile(`(?i)((src|href)\s*=\s*["']?\s*(https?:|//))|url\(\s*["']?\s*(https?:|//)|@import|<script|<link|<iframe`)

func TestReportSelfContained(t *testing.T) {
	in, errs := Load([]string{sharedData(t, "starlink-iperf3/traces")})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	a := Analyze(in.Flows)
	r := BuildReport(a, ReportOptions{Meta: []report.Meta{{Key: "inputs", Value: "traces"}},
		Warnings: []string{"w"}, Errors: []string{"x.json: byte 3: truncated"}})
	titles := map[string]int{}
	for _, s := range r.Sections {
		titles[s.Title] = len(s.Figures)
	}
	// Two groups (downlink and uplink Sydney): one scatter each + Pantheon;
	// throughput and RTT series, slot throughput and retransmits, queue per group.
	want := map[string]int{"Throughput, RTT inflation and delay": 3, "Per-interval time series": 4,
		"Reconfiguration slot profile": 4, "M/G/1 queue estimate": 2}
	for k, n := range want {
		if titles[k] != n {
			t.Errorf("section %q: %d figures, want %d (sections %v)", k, titles[k], n, titles)
		}
	}
	var page bytes.Buffer
	if err := report.RenderHTML(&page, r); err != nil {
		t.Fatal(err)
	}
	html := page.String()
	if m := externalRef.FindString(html); m != "" {
		t.Errorf("report references an external resource: %q", m)
	}
	for _, want := range []string{"<svg", "Per-flow metrics", "downlink_Sydney_bbr_run1.csv", "x.json: byte 3: truncated", "throughput (Mbit/s)"} {
		if !strings.Contains(html, want) {
			t.Errorf("report lacks %q", want)
		}
	}
	// The pattern itself must catch what it is meant to catch.
	for _, bad := range []string{`<img src="https://x/y.png">`, `<a href='//cdn/x'>`, `url(http://f/x.woff)`, `<script>`} {
		if !externalRef.MatchString(bad) {
			t.Errorf("externalRef misses %q", bad)
		}
	}
}
