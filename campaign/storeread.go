package campaign

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"

	"github.com/leolab/leolab/report"
	"github.com/leolab/leolab/result"
)

// Result rebuilds a stored run's result from the runs, flows and intervals
// tables, and a live run's instrument: everything but the link series, the
// probe packets and the controllers' internal state (Interval.CC), which
// the store does not keep.
func (s *Store) Result(ctx context.Context, id string) (*result.Result, error) {
	res := &result.Result{}
	var seed int64
	err := s.db.QueryRowContext(ctx, `SELECT engine, version, name, seed, epoch_utc, duration_s, wall_s,
		city, direction, base_rtt_ms, jain, max_min, fairness_from_s, fairness_to_s FROM runs WHERE id = ?`, id).
		Scan(&res.Engine, &res.Version, &res.Scenario, &seed, &res.EpochUTC, &res.DurationS, &res.WallS,
			&res.Path.City, &res.Path.Direction, &res.Path.BaseRTTMs, &res.Fairness.Jain, &res.Fairness.MaxMin,
			&res.Fairness.WindowStartS, &res.Fairness.WindowEndS)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, ErrNotStored)
	}
	if err != nil {
		return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, err)
	}
	res.Seed = uint64(seed)
	if res.Instrument, err = s.instrument(ctx, id); err != nil {
		return nil, err
	}
	flows, err := s.Flows(ctx, map[string]bool{id: true})
	if err != nil {
		return nil, err
	}
	for _, f := range flows {
		fl := result.Flow{ID: int(f.FlowID), CCA: f.CCA, StartS: f.StartS, BytesAcked: f.BytesAcked,
			ThroughputMbps: f.ThroughputMbps, Retransmits: f.Retransmits, RetransPerGB: f.RetransPerGB,
			MinRTTMs: f.MinRTTMs, MeanRTTMs: f.MeanRTTMs, P95RTTMs: f.P95RTTMs, RTTInflation: f.RTTInflation,
			RTOs: f.RTOs}
		if fl.Intervals, err = s.intervals(ctx, id, f.FlowID); err != nil {
			return nil, err
		}
		res.Flows = append(res.Flows, fl)
	}
	return res, nil
}

func (s *Store) intervals(ctx context.Context, id string, flow int64) ([]result.Interval, error) {
	rows, err := s.db.QueryContext(ctx, `SELECT t, bytes, retransmits, cwnd_bytes, srtt_ms, rttvar_ms,
		pacing_rate_bps FROM intervals WHERE run_id = ? AND flow_id = ? ORDER BY t`, id, flow)
	if err != nil {
		return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, err)
	}
	defer rows.Close()
	var out []result.Interval
	for rows.Next() {
		var iv result.Interval
		if err := rows.Scan(&iv.T, &iv.Bytes, &iv.Retransmits, &iv.CWndBytes, &iv.SRTTMs, &iv.RTTVarMs,
			&iv.PacingRateBps); err != nil {
			return nil, fmt.Errorf("store %s: run %s: %w", s.path, id, err)
		}
		out = append(out, iv)
	}
	return out, rows.Err()
}

// Count returns how many runs, flows and intervals rows the store holds.
func (s *Store) Count(ctx context.Context) (runs, flows, intervals int, err error) {
	for _, q := range []struct {
		table string
		n     *int
	}{{"runs", &runs}, {"flows", &flows}, {"intervals", &intervals}} {
		if err = s.db.QueryRowContext(ctx, "SELECT count(*) FROM "+q.table).Scan(q.n); err != nil {
			return 0, 0, 0, fmt.Errorf("store %s: %w", s.path, err)
		}
	}
	return runs, flows, intervals, nil
}

// ExportCSV writes the flows of the given runs (all when ids is nil) as
// CSV; the header is generated from the flows table's schema.
func (s *Store) ExportCSV(ctx context.Context, w io.Writer, ids map[string]bool) error {
	rows, err := s.Flows(ctx, ids)
	if err != nil {
		return err
	}
	t := FlowTable("flows", rows)
	return report.WriteCSV(w, &t)
}
