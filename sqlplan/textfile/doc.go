// Package textfile reads and writes the files the engine takes as tables
// besides Parquet: CSV (read_csv, its sniffer, COPY ... FROM, and the
// writer of COPY ... TO and EXPORT DATABASE), JSON (read_json and its
// type detection) and whole files (read_text, read_blob).
//
// It sits below the planner: the root package binds a table function or
// a file name to a call's options (read here from the marker the rewrite
// made of the call), lists the files, and wraps the scans this package
// returns as plan nodes. A scan streams its files in batches of typed
// column vectors (package vec), parsing each field's text straight into
// its column. What a reader needs of the engine (the parser of type
// names, json_transform's conversion of a JSON value) is passed in as a
// function; the package never imports the engine.
package textfile
