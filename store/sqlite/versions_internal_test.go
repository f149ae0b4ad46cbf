package sqlite

import (
	"context"
	"path/filepath"
	"testing"
)

// TestVersionsMigrationKeepsExistingConfigs: a database from before
// versions (0050 not applied) gets its configurations as version 1, active.
func TestVersionsMigrationKeepsExistingConfigs(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "k.db")
	s, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	// Back to the schema before 0050, with one configured instance.
	for _, q := range []string{
		`DROP TRIGGER strategy_versions_immutable`, `DROP TABLE strategy_versions`,
		`ALTER TABLE strategies DROP COLUMN active_version`, `ALTER TABLE strategy_evaluations DROP COLUMN strategy_version`,
		`ALTER TABLE sandbox_orders DROP COLUMN strategy_version`, `DELETE FROM schema_migrations WHERE version = 50`,
		`INSERT INTO strategies (name, type, enabled, config, created_at, updated_at)
			VALUES ('rsi', 'technical', 1, '{"name":"rsi","indicators":{"rsi_period":7}}', 1000, 2000)`,
	} {
		if _, err := s.w.ExecContext(ctx, q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	s.Close()

	if s, err = Open(ctx, path); err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	recs, err := s.Strategies(ctx)
	if err != nil || len(recs) != 1 || recs[0].ActiveVersion != 1 {
		t.Fatalf("strategies after the migration: %+v, %v", recs, err)
	}
	vs, err := s.StrategyVersions(ctx, "rsi")
	if err != nil || len(vs) != 1 || vs[0].Version != 1 || string(vs[0].Params) != `{"name":"rsi","indicators":{"rsi_period":7}}` ||
		vs[0].CreatedAt.UnixMilli() != 2000 || vs[0].Note != "Configuration before versions" {
		t.Fatalf("versions after the migration: %+v, %v", vs, err)
	}
	// Nothing rewrites a version.
	if _, err := s.w.ExecContext(ctx, `UPDATE strategy_versions SET note = 'x'`); err == nil {
		t.Fatal("a version was rewritten")
	}
}
