package campaign

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"slices"
)

// instrumentDDL keeps a live run's measurement of its own instrument
// (result.Result.Instrument: the pump's release error, its gaps off the
// CPU, the host's steal, TUN drops), so that a study read back from the
// store can weigh each run against the host's stalls as a live test does
// (a simulated run's instrument is its event counts). The table is new in stores made before it:
// CREATE TABLE IF NOT EXISTS adds it, empty, and their runs read back
// without an instrument.
const instrumentDDL = `CREATE TABLE IF NOT EXISTS instrument (
  run_id TEXT NOT NULL, key TEXT NOT NULL, value REAL NOT NULL,
  PRIMARY KEY (run_id, key)
) WITHOUT ROWID`

// putInstrument stores res's instrument under run id, in key order.
func putInstrument(ctx context.Context, tx *sql.Tx, id string, inst map[string]float64) error {
	if len(inst) == 0 {
		return nil
	}
	st, err := tx.PrepareContext(ctx, "INSERT INTO instrument VALUES (?,?,?)")
	if err != nil {
		return err
	}
	defer st.Close()
	for _, k := range slices.Sorted(maps.Keys(inst)) {
		if _, err := st.ExecContext(ctx, id, k, inst[k]); err != nil {
			return fmt.Errorf("instrument %s: %w", k, err)
		}
	}
	return nil
}

// instrument reads run id's instrument back (nil when it has none).
func (s *Store) instrument(ctx context.Context, id string) (map[string]float64, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT key, value FROM instrument WHERE run_id = ?", id)
	if err != nil {
		return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, err)
	}
	defer rows.Close()
	var out map[string]float64
	for rows.Next() {
		var k string
		var v float64
		if err := rows.Scan(&k, &v); err != nil {
			return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, err)
		}
		if out == nil {
			out = map[string]float64{}
		}
		out[k] = v
	}
	return out, rows.Err()
}
