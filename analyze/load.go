package analyze

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/leolab/leolab/iperf"
	"github.com/leolab/leolab/irtt"
	"github.com/leolab/leolab/result"
)

// Flow is one flow read from an input, with what is known about it.
type Flow struct {
	File  string // input file it was read from
	Label string // short name for tables and legends
	Meta  Meta
	// Group names the flows compared together; Concurrent says whether they
	// shared the path at the same time (fairness applies) or ran one after
	// another (a dedicated-flow comparison).
	Group      string
	Concurrent bool
	// Data holds the series (Intervals, T in seconds since Epoch) and the
	// source's own summary figures.
	Data result.Flow
	// Epoch is the wall-clock instant of Data's t = 0 (iperf3's
	// start.timestamp, a result's epoch_utc); zero when unknown.
	Epoch time.Time
	// SummaryOnly marks an end-summary row: no intervals, only totals.
	SummaryOnly bool
}

// Input is everything Load read.
type Input struct {
	Files    []string // files read successfully
	Flows    []Flow
	Warnings []string // oddities the readers reported, "file: where: what"
}

// Load reads every path (files, or directories searched recursively for
// *.json and *.csv). A file that cannot be read gives one error naming it
// (and, for malformed JSON, the byte offset) and the others are still read;
// a path that does not exist gives an error too.
func Load(paths []string) (*Input, []error) {
	in := &Input{}
	var errs []error
	for _, p := range paths {
		files, err := expand(p)
		if err != nil {
			errs = append(errs, err)
		}
		for _, f := range files {
			if err := in.readFile(f); err != nil {
				errs = append(errs, err)
				continue
			}
			in.Files = append(in.Files, f)
		}
	}
	assignGroups(in.Flows)
	return in, errs
}

// expand lists the files of one path argument, in lexical order.
func expand(path string) ([]string, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("analyze: %w", err)
	}
	if !st.IsDir() {
		return []string{path}, nil
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && isInputName(p) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return files, fmt.Errorf("analyze: %w", err)
	}
	return files, nil
}

// isInputName: the extensions looked for inside directories (.json.gz:
// irtt's gzipped output).
func isInputName(p string) bool {
	ext := strings.ToLower(filepath.Ext(p))
	return ext == ".json" || ext == ".csv" || strings.HasSuffix(strings.ToLower(p), ".json.gz")
}

// readFile reads one input file by its content: a CSV trace starts with its
// "# source=" provenance line, an end-summary CSV with a header row; JSON is a
// leolab result when its top level has "engine" and "flows", else an iperf3
// log.
func (in *Input) readFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("analyze: %w", err)
	}
	return in.readData(path, data)
}

// readData reads one input's bytes; path names it and its extension
// tells a summary CSV from JSON.
func (in *Input) readData(path string, data []byte) error {
	trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff")
	switch {
	case bytes.HasPrefix(trimmed, []byte("#")):
		run, err := iperf.ReadTrace(path, bytes.NewReader(data))
		if err != nil {
			return err
		}
		in.addRun(path, run)
	case strings.EqualFold(filepath.Ext(path), ".csv"):
		rows, err := iperf.ReadSummary(path, bytes.NewReader(data))
		if err != nil {
			return err
		}
		in.addSummary(path, rows)
	case irtt.IsCapture(data):
		return in.addIRTT(path, data)
	case isResult(data):
		return in.addResult(path, data)
	default:
		run, err := iperf.Parse(path, data)
		if err != nil {
			return err
		}
		in.addRun(path, run)
	}
	return nil
}

// isResult reports whether the first JSON document of data is an object
// with the result schema's "engine" and "flows" keys.
func isResult(data []byte) bool {
	var top map[string]json.RawMessage
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&top); err != nil {
		return false
	}
	_, e := top["engine"]
	_, f := top["flows"]
	return e && f
}

// addResult reads a leolab result document.
func (in *Input) addResult(path string, data []byte) error {
	var res result.Result
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&res); err != nil {
		return fmt.Errorf("analyze: result %s: %w", path, jsonOffset(err))
	}
	var epoch time.Time
	if res.EpochUTC != "" {
		t, err := time.Parse(time.RFC3339Nano, res.EpochUTC)
		if err != nil {
			return fmt.Errorf("analyze: result %s: epoch_utc %q: %w", path, res.EpochUTC, err)
		}
		epoch = t
	}
	base := filepath.Base(path)
	for _, f := range res.Flows {
		m := Meta{CCA: strings.ToLower(f.CCA), City: strings.ToLower(res.Path.City),
			Direction: res.Path.Direction, Kind: KindSim, Scenario: res.Scenario}
		in.Flows = append(in.Flows, Flow{File: path, Label: fmt.Sprintf("%s#%d", base, f.ID), Meta: m,
			Group: fmt.Sprintf("%s/%s/seed%d", res.Engine, res.Scenario, res.Seed), Concurrent: len(res.Flows) > 1,
			Data: f, Epoch: epoch})
	}
	return nil
}

// jsonOffset adds the byte offset to encoding/json's errors.
func jsonOffset(err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return fmt.Errorf("byte %d: %w", se.Offset, err)
	case errors.As(err, &te):
		return fmt.Errorf("byte %d: %w", te.Offset, err)
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return fmt.Errorf("truncated: %w", err)
	}
	return err
}

// addRun adds the streams of an iperf3 log or CSV trace.
func (in *Input) addRun(path string, run *iperf.Run) {
	m := ParseName(path)
	if run.Source != "" {
		src := ParseName(sourcePath(run.Source))
		m = merge(m, src)
	}
	if cc := strings.ToLower(run.SenderCC); cc != "" {
		m.CCA = cc
	}
	for _, w := range run.Warnings {
		in.Warnings = append(in.Warnings, fmt.Sprintf("%s: %s", path, w))
	}
	flows := run.Flows()
	base := filepath.Base(path)
	for i, f := range flows {
		label := base
		if len(flows) > 1 {
			label = fmt.Sprintf("%s#%d", base, i)
		}
		if f.CCA == "" {
			f.CCA = m.CCA
		}
		in.Flows = append(in.Flows, Flow{File: path, Label: label, Meta: m, Data: f, Epoch: knownEpoch(run.Start),
			Concurrent: len(flows) > 1})
	}
}

// knownEpoch drops a log start at or before the Unix epoch: it is no
// wall-clock time (a result without epoch_utc becomes an iperf3 log
// "started" in year 1, iperf.WriteDir), so the reconfiguration phase of such
// a flow is unknown.
func knownEpoch(t time.Time) time.Time {
	if t.Unix() <= 0 {
		return time.Time{}
	}
	return t
}

// sourcePath takes the path out of a trace's provenance
// "owner/repo:dir/file.json (commit …)".
func sourcePath(src string) string {
	if _, after, ok := strings.Cut(src, ":"); ok {
		src = after
	}
	if before, _, ok := strings.Cut(src, " "); ok {
		src = before
	}
	return src
}

// merge fills the empty fields of a from b.
func merge(a, b Meta) Meta {
	if a.CCA == "" {
		a.CCA = b.CCA
	}
	if a.City == "" {
		a.City = b.City
	}
	if a.Direction == "" {
		a.Direction = b.Direction
	}
	if a.Kind == "" {
		a.Kind = b.Kind
	}
	if a.Run == 0 {
		a.Run = b.Run
	}
	return a
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
