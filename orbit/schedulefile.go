package orbit

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/leolab/leolab/internal/bounded"
	"github.com/leolab/leolab/internal/fileerr"
)

// column is one field of a schedule's CSV (and `leolab orbit path`'s
// table): one schema for the writer and the reader.
type column struct {
	name string
	get  func(s *SlotPath) string
	set  func(s *SlotPath, v string) error // nil: not read back
}

var columns = []column{
	{"start", func(s *SlotPath) string { return s.Start.UTC().Format(time.RFC3339) }, func(s *SlotPath, v string) (err error) {
		s.Start, err = time.Parse(time.RFC3339, v)
		return err
	}},
	{"serving", func(s *SlotPath) string { return s.Serving }, func(s *SlotPath, v string) error { s.Serving = v; return nil }},
	{"gateway", func(s *SlotPath) string { return s.Gateway }, func(s *SlotPath, v string) error { s.Gateway = v; return nil }},
	{"hops", func(s *SlotPath) string { return strconv.Itoa(s.Hops) }, func(s *SlotPath, v string) (err error) {
		s.Hops, err = strconv.Atoi(v)
		return err
	}},
	{"isls", func(s *SlotPath) string { return strconv.Itoa(s.ISLs) }, func(s *SlotPath, v string) (err error) {
		s.ISLs, err = strconv.Atoi(v)
		return err
	}},
	{"space_km", func(s *SlotPath) string { return strconv.FormatFloat(s.SpaceKm, 'f', 1, 64) }, nil},
	{"fibre_km", func(s *SlotPath) string { return strconv.FormatFloat(s.FibreKm, 'f', 1, 64) }, nil},
	{"one_way_delay_ms", func(s *SlotPath) string { return strconv.FormatFloat(s.OWDms, 'f', 3, 64) }, func(s *SlotPath, v string) (err error) {
		s.OWDms, err = strconv.ParseFloat(v, 64)
		return err
	}},
	{"changed", func(s *SlotPath) string { return strconv.FormatBool(s.Changed) }, func(s *SlotPath, v string) (err error) {
		s.Changed, err = strconv.ParseBool(v)
		return err
	}},
	{"outage", func(s *SlotPath) string { return strconv.FormatBool(s.Outage) }, func(s *SlotPath, v string) (err error) {
		s.Outage, err = strconv.ParseBool(v)
		return err
	}},
}

// requiredColumns are what a schedule read back needs: when each slot
// starts, its delay, and whether the route changed or was down.
var requiredColumns = []string{"start", "one_way_delay_ms", "changed", "outage"}

// ColumnNames are the schedule's CSV header.
func ColumnNames() []string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = c.name
	}
	return out
}

// Row is the slot's CSV record, in ColumnNames order.
func (s SlotPath) Row() []string {
	out := make([]string, len(columns))
	for i, c := range columns {
		out[i] = c.get(&s)
	}
	return out
}

// WriteCSV writes a schedule as CSV: a header, then a record per slot.
func WriteCSV(w io.Writer, slots []SlotPath) error {
	cw := csv.NewWriter(w)
	cw.Write(ColumnNames())
	for _, s := range slots {
		cw.Write(s.Row())
	}
	cw.Flush()
	return cw.Error()
}

// MaxScheduleFileBytes bounds a schedule file before it is read: 100 000
// slots (`leolab orbit path`'s limit) of JSON with 20-hop routes are
// ~60 MB.
const MaxScheduleFileBytes = 64 << 20

// ScheduleFileError is a problem in a schedule file, at a line when known.
type ScheduleFileError = fileerr.Error

// ReadSchedule reads a schedule that `leolab orbit path` wrote with --csv
// or --json (told apart by the first byte): per slot its start, one-way
// delay (ms, kept to the µs the CSV prints), and changed and outage flags;
// serving, gateway, hops and isls when present. Slots must start at
// strictly increasing times and the delays be finite, 0..10 s.
func ReadSchedule(file string, r io.Reader) ([]SlotPath, error) {
	data, over, err := bounded.Read(r, MaxScheduleFileBytes)
	if err != nil {
		return nil, &ScheduleFileError{File: file, Msg: err.Error()}
	}
	if over {
		return nil, &ScheduleFileError{File: file, Msg: fmt.Sprintf("larger than %d MiB", MaxScheduleFileBytes>>20)}
	}
	var slots []SlotPath
	var lines []int
	if t := bytes.TrimSpace(data); len(t) > 0 && t[0] == '{' {
		slots, err = readScheduleJSON(file, t)
	} else {
		slots, lines, err = readScheduleCSV(file, data)
	}
	if err != nil {
		return nil, err
	}
	if len(slots) == 0 {
		return nil, &ScheduleFileError{File: file, Msg: "no slots (want the output of leolab orbit path --csv or --json)"}
	}
	for i := range slots {
		line := 0
		if lines != nil {
			line = lines[i]
		}
		s := &slots[i]
		if math.IsNaN(s.OWDms) || s.OWDms < 0 || s.OWDms > 10_000 {
			return nil, &ScheduleFileError{File: file, Line: line, Msg: fmt.Sprintf("slot %d: one_way_delay_ms %v outside 0..10000", i, s.OWDms)}
		}
		s.OneWay = time.Duration(math.Round(s.OWDms * 1e6))
		if i > 0 && !s.Start.After(slots[i-1].Start) {
			return nil, &ScheduleFileError{File: file, Line: line, Msg: fmt.Sprintf("slot %d starts at %s, not after the previous slot's %s (slots must be in time order)",
				i, s.Start.Format(time.RFC3339), slots[i-1].Start.Format(time.RFC3339))}
		}
	}
	return slots, nil
}

func readScheduleJSON(file string, data []byte) ([]SlotPath, error) {
	var doc struct {
		Slots []SlotPath `json:"slots"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if err := dec.Decode(&doc); err != nil {
		var se *json.SyntaxError
		msg := err.Error()
		if errors.As(err, &se) {
			msg = fmt.Sprintf("malformed JSON at byte %d: %v", se.Offset, err)
		}
		return nil, &ScheduleFileError{File: file, Msg: msg}
	}
	return doc.Slots, nil
}

func readScheduleCSV(file string, data []byte) ([]SlotPath, []int, error) {
	cr := csv.NewReader(bufio.NewReader(bytes.NewReader(data)))
	cr.ReuseRecord = true
	header, err := cr.Read()
	if err != nil {
		return nil, nil, &ScheduleFileError{File: file, Line: 1, Msg: fmt.Sprintf("header: %v", err)}
	}
	set := make([]func(*SlotPath, string) error, len(header))
	names := make([]string, len(header))
	for i, h := range header {
		names[i] = h
		j := slices.IndexFunc(columns, func(c column) bool { return c.name == h })
		if j < 0 {
			return nil, nil, &ScheduleFileError{File: file, Line: 1, Msg: fmt.Sprintf("unknown column %q (allowed: %v)", h, ColumnNames())}
		}
		set[i] = columns[j].set
	}
	for _, req := range requiredColumns {
		if !slices.Contains(names, req) {
			return nil, nil, &ScheduleFileError{File: file, Line: 1, Msg: fmt.Sprintf("missing column %s (needs %v)", req, requiredColumns)}
		}
	}
	var slots []SlotPath
	var lines []int
	for {
		rec, err := cr.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			var pe *csv.ParseError
			line := 0
			if errors.As(err, &pe) {
				line = pe.StartLine
			}
			return nil, nil, &ScheduleFileError{File: file, Line: line, Msg: err.Error()}
		}
		line, _ := cr.FieldPos(0)
		var s SlotPath
		for i, v := range rec {
			if set[i] == nil {
				continue
			}
			if err := set[i](&s, v); err != nil {
				return nil, nil, &ScheduleFileError{File: file, Line: line, Msg: fmt.Sprintf("column %s: %q is not valid: %v", names[i], v, err)}
			}
		}
		slots, lines = append(slots, s), append(lines, line)
	}
	return slots, lines, nil
}

// SlotLength returns the common spacing of a schedule's slot starts; a
// schedule of one slot, or one whose spacing changes, is an error naming
// the first slot that breaks it.
func SlotLength(slots []SlotPath) (time.Duration, error) {
	if len(slots) < 2 {
		return 0, fmt.Errorf("%d slot: at least two are needed to know the slot length", len(slots))
	}
	step := slots[1].Start.Sub(slots[0].Start)
	for i := 2; i < len(slots); i++ {
		if d := slots[i].Start.Sub(slots[i-1].Start); d != step {
			return 0, fmt.Errorf("slot %d starts %v after slot %d, not the schedule's %v (slots must be evenly spaced)", i, d, i-1, step)
		}
	}
	return step, nil
}
