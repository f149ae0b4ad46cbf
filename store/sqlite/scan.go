package sqlite

// scanner is a row or the current row of rows.
type scanner interface{ Scan(dest ...any) error }
