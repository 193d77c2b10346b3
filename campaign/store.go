package campaign

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/leolab/leolab/result"
	_ "modernc.org/sqlite" // registers the pure-Go "sqlite" driver
)

// storeBusyTimeoutMs is how long a writer waits for another process's lock
// (a `campaign status` reading while a campaign writes) before failing.
const storeBusyTimeoutMs = 10000

// Store is the SQLite results store: runs, flows and intervals. A run is
// written in one transaction when it completes, so a killed campaign loses
// only the runs in flight, and Done tells a resumed one what to skip.
type Store struct {
	db   *sql.DB
	path string
}

const runsDDL = `CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, name TEXT NOT NULL,
  engine TEXT NOT NULL, kind TEXT NOT NULL, direction TEXT NOT NULL, city TEXT NOT NULL,
  ccas TEXT NOT NULL, seed INTEGER NOT NULL, scenario TEXT NOT NULL,
  version TEXT NOT NULL, epoch_utc TEXT NOT NULL, duration_s REAL NOT NULL, wall_s REAL NOT NULL,
  base_rtt_ms REAL NOT NULL, jain REAL NOT NULL, max_min REAL NOT NULL,
  fairness_from_s REAL NOT NULL, fairness_to_s REAL NOT NULL
)`

const intervalsDDL = `CREATE TABLE IF NOT EXISTS intervals (
  run_id TEXT NOT NULL, flow_id INTEGER NOT NULL, t REAL NOT NULL,
  bytes INTEGER NOT NULL, retransmits INTEGER NOT NULL, cwnd_bytes INTEGER NOT NULL,
  srtt_ms REAL NOT NULL, rttvar_ms REAL NOT NULL, pacing_rate_bps REAL NOT NULL,
  PRIMARY KEY (run_id, flow_id, t)
) WITHOUT ROWID`

// OpenStore opens the store at path, creating it if there is no file. An
// existing file that is empty, truncated or not SQLite is an error (see
// checkStoreFile), not a fresh store.
func OpenStore(path string) (*Store, error) {
	err := checkStoreFile(path)
	if errors.Is(err, ErrStoreMissing) {
		err = createStore(path)
	}
	if err != nil {
		return nil, err
	}
	return openStore(path)
}

// OpenExistingStore opens the store at path for reading what it holds
// (`campaign status`, `campaign report`): a missing file is
// ErrStoreMissing rather than a new, empty store.
func OpenExistingStore(path string) (*Store, error) {
	if err := checkStoreFile(path); err != nil {
		return nil, err
	}
	return openStore(path)
}

func openStore(path string) (*Store, error) {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", storeBusyTimeoutMs))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(NORMAL)")
	q.Add("_txlock", "immediate")
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", path, err)
	}
	db.SetMaxOpenConns(1)
	for _, ddl := range []string{runsDDL, flowsDDL(), intervalsDDL, instrumentDDL} {
		if _, err := db.Exec(ddl); err != nil {
			db.Close()
			return nil, fmt.Errorf("store %s: %w", path, err)
		}
	}
	return &Store{db: db, path: path}, nil
}

// Close closes the store.
func (s *Store) Close() error { return s.db.Close() }

// Path is the store's file.
func (s *Store) Path() string { return s.path }

// Done returns the ids of the stored runs.
func (s *Store) Done(ctx context.Context) (map[string]bool, error) {
	versions, err := s.Versions(ctx)
	if err != nil {
		return nil, err
	}
	done := make(map[string]bool, len(versions))
	for id := range versions {
		done[id] = true
	}
	return done, nil
}

// Versions returns the leolab version that made each stored run, by id.
func (s *Store) Versions(ctx context.Context) (map[string]string, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT id, version FROM runs")
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.path, err)
	}
	defer rows.Close()
	out := map[string]string{}
	for rows.Next() {
		var id, v string
		if err := rows.Scan(&id, &v); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.path, err)
		}
		out[id] = v
	}
	return out, rows.Err()
}

// Put stores a finished run with its flows and intervals in one
// transaction. A run already stored is left alone: Put reports false.
func (s *Store) Put(ctx context.Context, r Run, res *result.Result) (bool, error) {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("store %s: %w", s.path, err)
	}
	defer tx.Rollback()
	f := res.Fairness
	ins, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO runs VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
		r.ID, res.Scenario, r.Engine, r.Kind, r.Direction, r.City, strings.Join(r.CCAs, ","), int64(r.Seed), r.Scenario,
		res.Version, res.EpochUTC, res.DurationS, res.WallS, res.Path.BaseRTTMs, f.Jain, f.MaxMin,
		f.WindowStartS, f.WindowEndS)
	if err != nil {
		return false, fmt.Errorf("store %s: run %s: %w", s.path, r.ID, err)
	}
	if n, err := ins.RowsAffected(); err != nil || n == 0 {
		return false, err
	}
	if err := putFlows(ctx, tx, r, res); err != nil {
		return false, fmt.Errorf("store %s: run %s: %w", s.path, r.ID, err)
	}
	if err := putInstrument(ctx, tx, r.ID, res.Instrument); err != nil {
		return false, fmt.Errorf("store %s: run %s: %w", s.path, r.ID, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("store %s: run %s: %w", s.path, r.ID, err)
	}
	return true, nil
}

func putFlows(ctx context.Context, tx *sql.Tx, r Run, res *result.Result) error {
	fst, err := tx.PrepareContext(ctx, flowsInsert())
	if err != nil {
		return err
	}
	defer fst.Close()
	ist, err := tx.PrepareContext(ctx, "INSERT INTO intervals VALUES (?,?,?,?,?,?,?,?,?)")
	if err != nil {
		return err
	}
	defer ist.Close()
	for i, fl := range res.Flows {
		row := flowRow(r, i, fl)
		if _, err := fst.ExecContext(ctx, row.values()...); err != nil {
			return fmt.Errorf("flow %d: %w", fl.ID, err)
		}
		for _, iv := range fl.Intervals {
			if _, err := ist.ExecContext(ctx, r.ID, fl.ID, iv.T, iv.Bytes, iv.Retransmits, iv.CWndBytes,
				iv.SRTTMs, iv.RTTVarMs, iv.PacingRateBps); err != nil {
				return fmt.Errorf("flow %d interval t=%g: %w", fl.ID, iv.T, err)
			}
		}
	}
	return nil
}

// flowRow is flow i of a run's result as a flows row; its label is the cca
// axis value it was run for.
func flowRow(r Run, i int, fl result.Flow) FlowRow {
	label := fl.CCA
	if i < len(r.CCAs) {
		label = r.CCAs[i]
	}
	return FlowRow{RunID: r.ID, Kind: r.Kind, Direction: r.Direction, City: r.City, Seed: int64(r.Seed),
		FlowID: int64(fl.ID), Label: label, CCA: fl.CCA, StartS: fl.StartS, ThroughputMbps: fl.ThroughputMbps,
		BytesAcked: fl.BytesAcked, Retransmits: fl.Retransmits, RetransPerGB: fl.RetransPerGB,
		MinRTTMs: fl.MinRTTMs, MeanRTTMs: fl.MeanRTTMs, P95RTTMs: fl.P95RTTMs, RTTInflation: fl.RTTInflation,
		RTOs: fl.RTOs}
}

// Flows returns the stored flows of the given runs (all runs when ids is
// nil), ordered by run id and flow id.
func (s *Store) Flows(ctx context.Context, ids map[string]bool) ([]FlowRow, error) {
	rows, err := s.db.QueryContext(ctx, "SELECT "+flowKeys()+" FROM flows ORDER BY run_id, flow_id")
	if err != nil {
		return nil, fmt.Errorf("store %s: %w", s.path, err)
	}
	defer rows.Close()
	var out []FlowRow
	for rows.Next() {
		var r FlowRow
		if err := rows.Scan(r.targets()...); err != nil {
			return nil, fmt.Errorf("store %s: %w", s.path, err)
		}
		if ids == nil || ids[r.RunID] {
			out = append(out, r)
		}
	}
	return out, rows.Err()
}

// ErrNotStored is returned by Result for a run the store does not hold.
var ErrNotStored = errors.New("run not stored")
