//! DynamoDB's export files read as AWS documents them (hand-written, to
//! the byte, gzip'd as an export's data files are), full and
//! incremental; ImportTable files written from typed entities.

use std::io::Write;
use std::path::{Path, PathBuf};

use ddb_entity::evolve::export::{ExportRecord, ImportWriter, LocalExport, read_records};
use ddb_entity::local::LocalDynamo;
use ddb_entity::{Db, Entity, ErrorKind};
use flate2::Compression;
use flate2::write::GzEncoder;
use futures_util::TryStreamExt;
use serde::Deserialize;

use super::backfill::{After, User};
use crate::support::put_raw;

pub(super) const EXPORT_ID: &str = "01700000000000-a1b2c3d4";

/// A fresh folder under the system's temporary one.
fn folder(name: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let dir = std::env::temp_dir().join(format!("ddb-entity-{name}-{nanos}"));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(super) fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

/// The base64 MD5 of `bytes`, as a files manifest's `md5Checksum`.
pub(super) fn md5_base64(bytes: &[u8]) -> String {
    aws_smithy_types::base64::encode(md5::compute(bytes).0)
}

/// An export's objects as DynamoDB writes them, by key: the manifests in
/// `2026-Dec/AWSDynamoDB/<ExportId>/`, each data file (name, lines)
/// gzip'd under its key, listed in the files manifest with its MD5 and
/// the ETag S3 gives an object written in one part (its MD5 in hex).
pub(super) fn export_objects(
    summary: &str,
    files: &[(&str, u64, &str)],
    data_folder: &str,
) -> Vec<(String, Vec<u8>)> {
    let export = format!("2026-Dec/AWSDynamoDB/{EXPORT_ID}");
    let mut objects = vec![
        (
            format!("{export}/manifest-summary.json"),
            summary.as_bytes().to_vec(),
        ),
        (format!("{export}/_started"), Vec::new()),
    ];
    let mut manifest = String::new();
    for (name, count, lines) in files {
        let key = format!("2026-Dec/AWSDynamoDB/{data_folder}/{name}.json.gz");
        let zipped = gzip(lines);
        manifest.push_str(&format!(
            "{{\"itemCount\":{count},\"md5Checksum\":\"{}\",\"etag\":\"{:x}\",\"dataFileS3Key\":\"{key}\"}}\n",
            md5_base64(&zipped),
            md5::compute(&zipped)
        ));
        objects.push((key, zipped));
    }
    objects.push((
        format!("{export}/manifest-files.json"),
        manifest.into_bytes(),
    ));
    objects
}

/// An export as `aws s3 cp --recursive` leaves it under `root` (see
/// [`export_objects`]). Returns the manifests' folder.
fn lay_out(root: &Path, summary: &str, files: &[(&str, u64, &str)], data_folder: &str) -> PathBuf {
    for (key, bytes) in export_objects(summary, files, data_folder) {
        let path = root.join(&key);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    root.join("2026-Dec/AWSDynamoDB").join(EXPORT_ID)
}

pub(super) fn full_summary(items: u64) -> String {
    format!(
        r#"{{"version":"2020-06-30","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Users/export/{EXPORT_ID}","startTime":"2026-12-02T07:28:34.028Z","endTime":"2026-12-02T07:33:43.897Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Users","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportTime":"2026-12-02T07:28:34.028Z","s3Bucket":"users-export","s3Prefix":"2026-Dec","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"2026-Dec/AWSDynamoDB/{EXPORT_ID}/manifest-files.json","billedSizeBytes":0,"itemCount":{items},"outputFormat":"DYNAMODB_JSON","exportType":"FULL_EXPORT"}}"#
    )
}

/// A legacy row of every DynamoDB type, as a migration would take it.
#[derive(Deserialize, Debug, PartialEq)]
struct LegacyRow {
    user_id: u64,
    tags: std::collections::BTreeSet<String>,
    active: bool,
    scores: Vec<u32>,
    address: std::collections::BTreeMap<String, String>,
    nickname: Option<String>,
    avatar: serde_bytes_like::Bytes,
}

mod serde_bytes_like {
    /// Binary (`B`) read as its bytes.
    #[derive(Debug, PartialEq)]
    pub struct Bytes(pub Vec<u8>);

    impl<'de> serde::Deserialize<'de> for Bytes {
        fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct Visitor;
            impl<'de> serde::de::Visitor<'de> for Visitor {
                type Value = Bytes;
                fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E>(self, v: &[u8]) -> Result<Bytes, E> {
                    Ok(Bytes(v.to_vec()))
                }
                fn visit_byte_buf<E>(self, v: Vec<u8>) -> Result<Bytes, E> {
                    Ok(Bytes(v))
                }
            }
            d.deserialize_byte_buf(Visitor)
        }
    }
}

#[tokio::test]
async fn a_full_export_read_by_its_manifests_yields_typed_items_and_legacy_rows() {
    let root = folder("full-export");
    // Two partitions' files: users (one of another type among them), and
    // a legacy row of every type; an empty partition's empty file.
    let users = concat!(
        r#"{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"3"},"GSI1PK":{"S":"CITY#Oslo"},"GSI1SK":{"S":"USER#0000000001"}}}"#,
        "\n",
        r#"{"Item":{"PK":{"S":"USER#2"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Quito"},"visits":{"N":"0"},"GSI1PK":{"S":"CITY#Quito"},"GSI1SK":{"S":"USER#0000000002"}}}"#,
        "\n",
        r#"{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"AUDIT#1"},"_type":{"S":"AUDIT"},"city":{"S":"Oslo"}}}"#,
        "\n",
    );
    let legacy = concat!(
        r#"{"Item":{"user_id":{"N":"42"},"tags":{"SS":["b","a"]},"active":{"BOOL":true},"scores":{"L":[{"N":"1"},{"N":"2"}]},"address":{"M":{"city":{"S":"Lisbon"}}},"nickname":{"NULL":true},"avatar":{"B":"AJ//"}}}"#,
        "\n",
    );
    let export = lay_out(
        &root,
        &full_summary(4),
        &[("a1b2", 3, users), ("c3d4", 1, legacy), ("e5f6", 0, "")],
        &format!("{EXPORT_ID}/data"),
    );
    let export = LocalExport::open(&export).await.unwrap();
    assert!(!export.summary().is_incremental());
    assert_eq!(export.summary().item_count, 4);
    assert_eq!(export.files().len(), 3);
    let first = std::fs::read(root.join(&export.files()[0].data_file_s3_key)).unwrap();
    assert_eq!(export.files()[0].md5_checksum, Some(md5_base64(&first)));
    let records: Vec<ExportRecord> = export.records().try_collect().await.unwrap();
    assert_eq!(records.len(), 4);

    let users: Vec<User> = records[..3]
        .iter()
        .filter_map(|r| r.entity::<User>().unwrap())
        .collect();
    assert_eq!(users.len(), 2, "the audit item is not a user");
    // A row with no type attribute is not taken for a user.
    let untyped = records[3].entity::<User>().unwrap_err();
    assert_eq!(untyped.kind(), ErrorKind::WrongType);
    assert_eq!(
        (users[0].id, users[0].city.as_str(), users[0].visits),
        (1, "Oslo", 3)
    );
    assert_eq!(
        (users[1].id, users[1].city.as_str(), users[1].visits),
        (2, "Quito", 0)
    );

    let row: LegacyRow = records[3].decode().unwrap().unwrap();
    assert_eq!(row.user_id, 42);
    assert_eq!(row.tags.iter().collect::<Vec<_>>(), ["a", "b"]);
    assert!(row.active);
    assert_eq!(row.scores, [1, 2]);
    assert_eq!(row.address["city"], "Lisbon");
    assert_eq!(row.nickname, None);
    assert_eq!(row.avatar.0, [0x00, 0x9f, 0xff]);
}

#[tokio::test]
async fn an_incremental_export_yields_creations_changes_and_deletions() {
    let root = folder("incremental-export");
    let summary = format!(
        r#"{{"version":"2023-08-01","exportArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Users/export/{EXPORT_ID}","startTime":"2026-12-02T08:00:00.000Z","endTime":"2026-12-02T08:05:00.000Z","tableArn":"arn:aws:dynamodb:us-east-1:123456789012:table/Users","tableId":"12345a12-abcd-123a-ab12-1234abc12345","exportFromTime":"2026-12-02T07:00:00.000Z","exportToTime":"2026-12-02T08:00:00.000Z","s3Bucket":"users-export","s3Prefix":"2026-Dec","s3SseAlgorithm":"AES256","s3SseKmsKeyId":null,"manifestFilesS3Key":"2026-Dec/AWSDynamoDB/{EXPORT_ID}/manifest-files.json","billedSizeBytes":0,"itemCount":4,"outputFormat":"DYNAMODB_JSON","outputView":"NEW_AND_OLD_IMAGES","exportType":"INCREMENTAL_EXPORT"}}"#
    );
    let changes = concat!(
        // Created in the window: keys and new image.
        r#"{"Metadata":{"WriteTimestampMicros":{"N":"1764662400000001"}},"Keys":{"PK":{"S":"USER#3"},"SK":{"S":"PROFILE"}},"NewImage":{"PK":{"S":"USER#3"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Perth"},"visits":{"N":"1"}}}"#,
        "\n",
        // Changed: both images.
        r#"{"Metadata":{"WriteTimestampMicros":{"N":"1764662400000002"}},"Keys":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"}},"NewImage":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"4"}},"OldImage":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"3"}}}"#,
        "\n",
        // Deleted: keys and old image.
        r#"{"Metadata":{"WriteTimestampMicros":{"N":"1764662400000003"}},"Keys":{"PK":{"S":"USER#2"},"SK":{"S":"PROFILE"}},"OldImage":{"PK":{"S":"USER#2"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Quito"},"visits":{"N":"0"}}}"#,
        "\n",
        // Deleted, as the NEW_IMAGE view writes it: keys only.
        r#"{"Metadata":{"WriteTimestampMicros":{"N":"1764662400000004"}},"Keys":{"PK":{"S":"USER#4"},"SK":{"S":"PROFILE"}}}"#,
        "\n",
    );
    // Incremental exports keep their data in the prefix's shared folder.
    let export = lay_out(&root, &summary, &[("f7a8", 4, changes)], "data");
    let export = LocalExport::open(&export).await.unwrap();
    assert!(export.summary().is_incremental());
    assert_eq!(
        export.summary().output_view.as_deref(),
        Some("NEW_AND_OLD_IMAGES")
    );
    let records: Vec<ExportRecord> = export.records().try_collect().await.unwrap();
    let changes: Vec<_> = records
        .iter()
        .map(|r| match r {
            ExportRecord::Change(change) => change.clone(),
            other => panic!("not a change: {other:?}"),
        })
        .collect();
    assert_eq!(changes.len(), 4);
    assert!(!changes[0].is_removal() && changes[0].old_image.is_none());
    assert_eq!(records[0].entity::<User>().unwrap().unwrap().city, "Perth");
    assert_eq!(records[1].entity::<User>().unwrap().unwrap().visits, 4);
    let before = User::from_item(changes[1].old_image.clone().unwrap()).unwrap();
    assert_eq!(before.visits, 3);
    assert!(changes[2].is_removal() && changes[2].old_image.is_some());
    assert_eq!(records[2].entity::<User>().unwrap(), None);
    assert!(changes[3].is_removal() && changes[3].old_image.is_none());
    assert_eq!(changes[3].keys["PK"].as_s().unwrap(), "USER#4");
    assert_eq!(
        changes
            .iter()
            .map(|c| c.written_at_micros)
            .collect::<Vec<_>>(),
        [
            1764662400000001,
            1764662400000002,
            1764662400000003,
            1764662400000004
        ]
    );
}

#[tokio::test]
async fn a_data_file_cut_short_or_malformed_is_an_error_naming_the_file_and_line() {
    let line = r#"{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"3"}}}"#;
    // The manifest counts 2, the file holds 1.
    let root = folder("cut-export");
    let export = lay_out(
        &root,
        &full_summary(2),
        &[("a1b2", 2, &format!("{line}\n"))],
        &format!("{EXPORT_ID}/data"),
    );
    let export = LocalExport::open(&export).await.unwrap();
    let err = export.records().try_collect::<Vec<_>>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("a1b2.json.gz"), "{err}");
    assert!(
        err.to_string()
            .contains("holds 1 records where the files manifest says 2"),
        "{err}"
    );

    // A line that is neither shape, the third of its file.
    let text = format!("{line}\n\n{{\"Item\":{{\"PK\":{{\"Q\":\"x\"}}}}}}\n{line}\n");
    let err = read_records("bad.json", text.as_bytes())
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(err.to_string().starts_with("bad.json line 3:"), "{err}");
    let err = read_records("mixed.json", &br#"{"Item":{},"Keys":{}}"#[..])
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("mixes"), "{err}");

    // A gzip'd file cut short.
    let zipped = gzip(&format!("{line}\n{line}\n"));
    let cut = &zipped[..zipped.len() - 12];
    let err = read_records("cut.json.gz", cut)
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("cut.json.gz"), "{err}");

    // A damaged file (one byte of its gzip'd data changed; the manifest's
    // MD5 is the file's as exported): an error before any of its records.
    let root = folder("damaged-export");
    let export = lay_out(
        &root,
        &full_summary(2),
        &[("a1b2", 2, &format!("{line}\n{line}\n"))],
        &format!("{EXPORT_ID}/data"),
    );
    let opened = LocalExport::open(&export).await.unwrap();
    let path = root.join(&opened.files()[0].data_file_s3_key);
    let mut bytes = std::fs::read(&path).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x01;
    std::fs::write(&path, &bytes).unwrap();
    let mut records = std::pin::pin!(opened.records());
    let err = records.try_next().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("a1b2.json.gz"), "{err}");
    assert!(err.to_string().contains("its MD5 is"), "{err}");
    assert!(
        records.try_next().await.unwrap().is_none(),
        "nothing after it"
    );

    // A file written in one part: its ETag is its MD5 in hex, checked too
    // (here the manifest gives no md5Checksum, only the ETag).
    let manifest = export.join("manifest-files.json");
    let entry = format!(
        "{{\"itemCount\":2,\"etag\":\"\\\"{:x}\\\"\",\"dataFileS3Key\":\"{}\"}}\n",
        md5::compute(b"what was exported"),
        opened.files()[0].data_file_s3_key
    );
    std::fs::write(&manifest, entry).unwrap();
    let reopened = LocalExport::open(&export).await.unwrap();
    assert_eq!(reopened.files()[0].md5_checksum, None);
    let err = reopened
        .records()
        .try_collect::<Vec<_>>()
        .await
        .unwrap_err();
    assert!(err.to_string().contains("manifest's ETag says"), "{err}");
    // A multipart upload's ETag (`-N`) is not an MD5: the file is read by
    // its md5Checksum alone.
    let key = &opened.files()[0].data_file_s3_key;
    let intact = gzip(&format!("{line}\n{line}\n"));
    std::fs::write(&path, &intact).unwrap();
    let entry = format!(
        "{{\"itemCount\":2,\"md5Checksum\":\"{}\",\"etag\":\"af83d6f217c19b8b0fff8023d8ca4716-1\",\"dataFileS3Key\":\"{key}\"}}\n",
        md5_base64(&intact)
    );
    std::fs::write(&manifest, entry).unwrap();
    let multipart = LocalExport::open(&export).await.unwrap();
    assert_eq!(
        multipart
            .records()
            .try_collect::<Vec<_>>()
            .await
            .unwrap()
            .len(),
        2
    );

    // An Ion export is refused by name.
    let ion = folder("ion-export");
    let export = lay_out(
        &ion,
        &full_summary(0).replace("DYNAMODB_JSON", "ION"),
        &[],
        &format!("{EXPORT_ID}/data"),
    );
    let err = LocalExport::open(&export).await.unwrap_err();
    assert!(err.to_string().contains("only DYNAMODB_JSON"), "{err}");
}

#[tokio::test]
async fn an_import_file_is_written_as_documented_and_holds_what_the_library_stores() {
    let users: Vec<User> = (0..3)
        .map(|id| User {
            id,
            city: ["Oslo", "Quito", "Perth"][id as usize].to_owned(),
            visits: u64::from(id) * 10,
        })
        .collect();
    let mut writer = ImportWriter::new(Vec::new());
    for user in &users {
        writer.put(user).unwrap();
    }
    let (text, count) = writer.finish().unwrap();
    assert_eq!(count, 3);
    let text = String::from_utf8(text).unwrap();
    // ImportTable's DYNAMODB_JSON input, byte for byte: one `{"Item":…}`
    // per line, attributes in name order.
    assert_eq!(
        text.lines().next().unwrap(),
        r#"{"Item":{"GSI1PK":{"S":"CITY#Oslo"},"GSI1SK":{"S":"USER#0000000000"},"PK":{"S":"USER#0"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"0"}}}"#
    );
    assert_eq!(text.lines().count(), 3);
    assert!(text.ends_with("}\n"));

    // Gzip'd for InputCompressionType GZIP: the same lines.
    let mut zipped = ImportWriter::gzip(Vec::new());
    for user in &users {
        zipped.put(user).unwrap();
    }
    let (bytes, _) = zipped.finish().unwrap();
    let mut plain = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut plain).unwrap();
    assert_eq!(String::from_utf8(plain).unwrap(), text);

    // Every line is the item a put stores: read back and written raw, it
    // reads as the user, found by its index too.
    let dynamo = LocalDynamo::start().await.unwrap();
    let db = Db::<After>::new(dynamo.client(), dynamo.unique_table_name("import"));
    db.create_table_if_missing().await.unwrap();
    let records: Vec<ExportRecord> = read_records("import.json", text.as_bytes())
        .try_collect()
        .await
        .unwrap();
    for record in &records {
        put_raw(&db, record.item().unwrap().clone()).await;
    }
    for user in &users {
        assert_eq!(
            db.get(User::key(user.id).unwrap()).await.unwrap().as_ref(),
            Some(user)
        );
    }
    let in_quito: Vec<User> = db
        .query(User::by_city_partition("Quito").unwrap())
        .all()
        .await
        .unwrap();
    assert_eq!(in_quito, [users[1].clone()]);
}
