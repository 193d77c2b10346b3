package analyze

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/result"
)

// bytesPerGB: retransmissions per GB use decimal gigabytes (seed 000 Fig.
// 9/10, "retransmissions per GB").
const bytesPerGB = 1e9

// writeDirName matches the files of `leolab sim --iperf3-json DIR`
// (iperf.WriteDir: flow<ID>_<cca>.json), which are the concurrent flows of one
// run.
var writeDirName = regexp.MustCompile(`^flow[0-9]+_[^/]*\.json$`)

// addSummary adds the rows of an end-summary CSV: totals only.
func (in *Input) addSummary(path string, rows []iperf.Summary) {
	for _, s := range rows {
		m := Meta{CCA: strings.ToLower(s.CCA), City: strings.ToLower(s.City), Direction: s.Direction,
			Kind: KindSequential, Run: s.Run}
		if s.Concurrent {
			m.Kind = KindCompetitive
		}
		if cc := strings.ToLower(s.SenderCC); cc != "" && m.CCA == "" {
			m.CCA = cc
		}
		for _, w := range s.Warnings {
			in.Warnings = append(in.Warnings, fmt.Sprintf("%s: %s %s %s run %d: %s", path, s.Scenario, s.City, s.CCA, s.Run, w))
		}
		in.Flows = append(in.Flows, Flow{File: path, Label: fmt.Sprintf("%s %s run%d", s.City, s.CCA, s.Run),
			Meta: m, Data: summaryFlow(s), SummaryOnly: true})
	}
}

// summaryFlow turns an end-summary row into a flow without intervals. The
// dataset's downlink rows are the server's (sender's) log with receiver
// columns 0, so the sender's figures come first (../shared/data/README.md).
func summaryFlow(s iperf.Summary) result.Flow {
	f := result.Flow{CCA: strings.ToLower(s.CCA), EndS: s.Seconds, BytesAcked: s.SenderBytes,
		ThroughputMbps: s.SenderBps / 1e6, Retransmits: s.Retransmits,
		MinRTTMs: ms(s.MinRTT), MeanRTTMs: ms(s.MeanRTT)}
	if f.BytesAcked == 0 {
		f.BytesAcked, f.ThroughputMbps = s.RecvBytes, s.RecvBps/1e6
	}
	if f.BytesAcked > 0 {
		f.RetransPerGB = float64(f.Retransmits) / (float64(f.BytesAcked) / bytesPerGB)
	}
	if f.MinRTTMs > 0 {
		f.RTTInflation = f.MeanRTTMs / f.MinRTTMs
	}
	return f
}

// assignGroups names the group of every flow that its reader left
// ungrouped: the files of one --iperf3-json directory form one concurrent
// run; the dataset's competitive runs are grouped per direction, city and run
// number (the nine CCAs' logs of one run shared the dish at once); other
// flows by direction, city and kind, as dedicated flows compared side by
// side.
func assignGroups(flows []Flow) {
	perDir := map[string]int{}
	for _, f := range flows {
		if writeDirName.MatchString(filepath.Base(f.File)) {
			perDir[filepath.Dir(f.File)]++
		}
	}
	for i := range flows {
		f := &flows[i]
		if f.Group != "" {
			continue
		}
		switch {
		case writeDirName.MatchString(filepath.Base(f.File)):
			dir := filepath.Dir(f.File)
			f.Group, f.Concurrent = filepath.Base(dir)+"/", perDir[dir] > 1
		case f.Concurrent:
			f.Group = filepath.Base(f.File)
		default:
			f.Group, f.Concurrent = metaGroup(f.Meta)
		}
	}
}

// metaGroup is the group of a flow known only by its metadata.
func metaGroup(m Meta) (string, bool) {
	var parts []string
	for _, p := range []string{m.Direction, m.City, m.Kind} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	concurrent := m.Kind == KindCompetitive
	if concurrent {
		parts = append(parts, fmt.Sprintf("run%d", m.Run))
	}
	if len(parts) == 0 {
		return "iperf3", false
	}
	return strings.Join(parts, "/"), concurrent
}
