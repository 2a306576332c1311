//! An export read where DynamoDB writes it: S3 (moto's), by its
//! manifests, each data file checked against them before its records.
//!
//! Needs an S3 endpoint: `S3_ENDPOINT` (`.ci/run` points it at the moto
//! server it starts for the cross-check, which serves S3 beside
//! DynamoDB). Without one the test says so and passes: the embedded
//! server has no S3.

use aws_sdk_s3::Client;
use aws_sdk_s3::config::{
    BehaviorVersion, Credentials, Region, RequestChecksumCalculation, ResponseChecksumValidation,
};
use aws_sdk_s3::primitives::ByteStream;
use ddb_entity::ErrorKind;
use ddb_entity::evolve::export::{ExportRecord, S3Export};
use ddb_entity::local::LocalDynamo;
use futures_util::TryStreamExt;

use super::backfill::User;
use super::export::{EXPORT_ID, export_objects, full_summary, gzip, md5_base64};

/// A client of the S3 at `S3_ENDPOINT`, over the plain-HTTP client the
/// library's local helper builds for DynamoDB; `None` without one.
fn s3() -> Option<Client> {
    let endpoint = std::env::var("S3_ENDPOINT")
        .ok()
        .filter(|e| !e.is_empty())?;
    let http = LocalDynamo::connect(endpoint.clone())
        .unwrap()
        .config_builder()
        .build()
        .http_client()
        .expect("the local helper sets an HTTP client");
    let config = aws_sdk_s3::Config::builder()
        .behavior_version(BehaviorVersion::latest())
        .endpoint_url(endpoint)
        .region(Region::new("us-east-1"))
        .credentials_provider(Credentials::new("local", "local", None, None, "test"))
        .force_path_style(true)
        // Plain uploads and downloads: the checks under test are the
        // export manifest's, not the SDK's own checksums.
        .request_checksum_calculation(RequestChecksumCalculation::WhenRequired)
        .response_checksum_validation(ResponseChecksumValidation::WhenRequired)
        .http_client(http)
        .build();
    Some(Client::from_conf(config))
}

async fn put(client: &Client, bucket: &str, key: &str, bytes: Vec<u8>) {
    client
        .put_object()
        .bucket(bucket)
        .key(key)
        .body(ByteStream::from(bytes))
        .send()
        .await
        .unwrap();
}

/// A fresh bucket holding `objects`.
async fn bucket_with(client: &Client, objects: Vec<(String, Vec<u8>)>) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let bucket = format!("ddb-entity-export-{nanos}");
    client.create_bucket().bucket(&bucket).send().await.unwrap();
    for (key, bytes) in objects {
        put(client, &bucket, &key, bytes).await;
    }
    bucket
}

const LINE_1: &str = r#"{"Item":{"PK":{"S":"USER#1"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Oslo"},"visits":{"N":"3"}}}"#;
const LINE_2: &str = r#"{"Item":{"PK":{"S":"USER#2"},"SK":{"S":"PROFILE"},"_type":{"S":"user"},"city":{"S":"Quito"},"visits":{"N":"0"}}}"#;

#[tokio::test]
async fn an_export_in_s3_is_read_by_its_manifests_and_each_file_checked_before_its_records() {
    let Some(client) = s3() else {
        eprintln!("skipped: no S3_ENDPOINT (the moto cross-check of .ci/run sets it)");
        return;
    };
    let folder = format!("2026-Dec/AWSDynamoDB/{EXPORT_ID}");
    let files = [
        ("a1b2", 1, &*format!("{LINE_1}\n")),
        ("c3d4", 1, &*format!("{LINE_2}\n")),
        ("e5f6", 0, ""),
    ];
    let objects = export_objects(&full_summary(2), &files, &format!("{EXPORT_ID}/data"));
    let bucket = bucket_with(&client, objects).await;

    // Read whole: typed users, every file checked.
    let export = S3Export::open(client.clone(), &bucket, format!("{folder}/"))
        .await
        .unwrap();
    assert_eq!(export.summary().item_count, 2);
    assert_eq!(export.files().len(), 3);
    let records: Vec<ExportRecord> = export.records().try_collect().await.unwrap();
    let users: Vec<User> = records
        .iter()
        .filter_map(|r| r.entity::<User>().unwrap())
        .collect();
    assert_eq!(
        users
            .iter()
            .map(|u| (u.id, u.city.as_str(), u.visits))
            .collect::<Vec<_>>(),
        [(1, "Oslo", 3), (2, "Quito", 0)]
    );
    // The folder without its trailing slash is the same export.
    let again = S3Export::open(client.clone(), &bucket, &folder)
        .await
        .unwrap();
    assert_eq!(again.files(), export.files());

    // The second file damaged in S3 (other bytes at its key, the manifest
    // the export's): the first file's record, then the typed error, and
    // not one record of the damaged file.
    let second = export.files()[1].data_file_s3_key.clone();
    let damaged = gzip(&format!("{LINE_2}\n").replace("Quito", "Quit0"));
    put(&client, &bucket, &second, damaged).await;
    let mut records = std::pin::pin!(export.records());
    let first = records.try_next().await.unwrap().unwrap();
    assert_eq!(first.entity::<User>().unwrap().unwrap().id, 1);
    let err = records.try_next().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(
        err.to_string().contains(&format!("s3://{bucket}/{second}")),
        "{err}"
    );
    assert!(err.to_string().contains("its MD5 is"), "{err}");
    assert!(
        records.try_next().await.unwrap().is_none(),
        "nothing after it"
    );

    // Another object at the key of a file the manifest gives S3's ETag
    // for: told by the ETag S3 serves, whatever the MD5 says.
    let intact = gzip(&format!("{LINE_2}\n"));
    let manifest = format!(
        "{{\"itemCount\":1,\"md5Checksum\":\"{}\",\"etag\":\"\\\"0123456789abcdef0123456789abcdef\\\"\",\"dataFileS3Key\":\"{second}\"}}\n",
        md5_base64(&intact)
    );
    put(&client, &bucket, &second, intact).await;
    put(
        &client,
        &bucket,
        &export.summary().manifest_files_s3_key,
        manifest.into_bytes(),
    )
    .await;
    let swapped = S3Export::open(client.clone(), &bucket, &folder)
        .await
        .unwrap();
    let err = swapped.records().try_collect::<Vec<_>>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Decode);
    assert!(err.to_string().contains("served with ETag"), "{err}");

    // A data file missing from the bucket: S3's error, typed.
    client
        .delete_object()
        .bucket(&bucket)
        .key(&second)
        .send()
        .await
        .unwrap();
    let err = export.records().try_collect::<Vec<_>>().await.unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Service);
    assert_eq!(err.code(), Some("NoSuchKey"), "{err}");
    assert!(!err.is_retryable());
    assert!(std::error::Error::source(&err).is_some());

    // No export under a folder: the summary's absence, typed.
    let err = S3Export::open(client.clone(), &bucket, "2026-Dec/AWSDynamoDB/none")
        .await
        .unwrap_err();
    assert_eq!(err.code(), Some("NoSuchKey"), "{err}");
    assert!(err.to_string().contains("manifest-summary.json"), "{err}");
}
