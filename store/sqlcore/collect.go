package sqlcore

// collect reads every row of rows with scan, appending to out (an empty,
// non-nil slice: a listing of nothing is [] in JSON), and closes rows.
func collect[T any](rows Rows, out []T, scan func(Row) (T, error)) ([]T, error) {
	defer rows.Close()
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
