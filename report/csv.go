package report

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// WriteCSV writes the table as CSV: one header line of column keys, then
// one line per row; floats in shortest round-trip form, missing floats empty.
func WriteCSV(w io.Writer, t *Table) error {
	if err := t.validate(); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	rec := make([]string, len(t.Columns))
	for i, c := range t.Columns {
		rec[i] = c.Key
	}
	if err := cw.Write(rec); err != nil {
		return fmt.Errorf("table %q: csv: %w", t.Title, err)
	}
	for _, row := range t.Rows {
		for i, cell := range row {
			rec[i] = cell.csv()
		}
		if err := cw.Write(rec); err != nil {
			return fmt.Errorf("table %q: csv: %w", t.Title, err)
		}
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("table %q: csv: %w", t.Title, err)
	}
	return nil
}

// ReadCSV reads a CSV written by WriteCSV against the expected schema: the
// header must list exactly the schema's keys in order; errors name the line
// and the column.
func ReadCSV(r io.Reader, cols []Column) (*Table, error) {
	t := &Table{Columns: cols}
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = len(cols)
	hdr, err := cr.Read()
	if err != nil {
		return nil, fmt.Errorf("csv header: %w", err)
	}
	for i, c := range cols {
		if hdr[i] != c.Key {
			return nil, fmt.Errorf("csv header: column %d is %q, want %q", i+1, hdr[i], c.Key)
		}
	}
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("csv: %w", err)
		}
		line, _ := cr.FieldPos(0)
		row := make([]Cell, len(cols))
		for i, c := range cols {
			cell, err := parseCell(rec[i], c.Kind)
			if err != nil {
				return nil, fmt.Errorf("csv line %d column %s: %w", line, c.Key, err)
			}
			row[i] = cell
		}
		t.Rows = append(t.Rows, row)
	}
	return t, t.validate()
}

func parseCell(s string, k Kind) (Cell, error) {
	switch k {
	case Float:
		if s == "" {
			return Num(math.NaN()), nil
		}
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return Cell{}, fmt.Errorf("%q is not a number", s)
		}
		return Num(f), nil
	case Int:
		i, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			return Cell{}, fmt.Errorf("%q is not an integer", s)
		}
		return Count(i), nil
	}
	return Str(s), nil
}
