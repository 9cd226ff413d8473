import { randomBytes } from 'node:crypto';
import { crc32, deflateSync } from 'node:zlib';

/*
 * Files to upload through the gateway, made here (never copied from a corpus): a real PNG, JPEG-framed
 * bytes, and an ordinary WordPress-style plugin file. Used by upload-scan-gateway.test.ts and by
 * bench/gateway-upload-scan.ts.
 */

/** A real PNG: noisy RGB rows (so it stays large), deflated, every chunk with its CRC. */
export function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const rows = Buffer.concat(Array.from({ length: height }, () => Buffer.concat([Buffer.from([0]), randomBytes(width * 3)])));
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(rows)), chunk('IEND', Buffer.alloc(0))]);
}

/** JPEG-framed bytes (SOI, JFIF APP0, scan data, EOI) of about `size` bytes. */
export function jpeg(size: number): Buffer {
  const app0 = Buffer.from('ffd8ffe000104a46494600010100000100010000', 'hex');
  // No bare 0xff in the scan data (encoders stuff it: a bare one would start a marker).
  const data = randomBytes(size).map((b) => (b === 0xff ? 0xfe : b));
  return Buffer.concat([app0, Buffer.from('ffda000c03010002110311003f00', 'hex'), data, Buffer.from('ffd9', 'hex')]);
}

/** An ordinary WordPress-style plugin file: hooks, options, escaping, a nonce-checked form. */
export function pluginFile(): Buffer {
  let php = `<?php
/**
 * Plugin Name: Acme Gallery
 * Description: Shows a gallery of recent images on a settings page.
 * Version: 1.4.2
 */
if ( ! defined( 'ABSPATH' ) ) {
\texit;
}

function acme_gallery_register_settings() {
\tregister_setting( 'acme_gallery', 'acme_gallery_options', array( 'sanitize_callback' => 'acme_gallery_sanitize' ) );
\tadd_settings_section( 'acme_main', __( 'Gallery', 'acme' ), '__return_false', 'acme' );
}
add_action( 'admin_init', 'acme_gallery_register_settings' );

function acme_gallery_sanitize( $input ) {
\t$output = array();
\t$output['columns'] = isset( $input['columns'] ) ? absint( $input['columns'] ) : 3;
\t$output['title']   = isset( $input['title'] ) ? sanitize_text_field( $input['title'] ) : '';
\treturn $output;
}

function acme_gallery_save() {
\tif ( ! isset( $_POST['acme_nonce'] ) || ! wp_verify_nonce( sanitize_key( $_POST['acme_nonce'] ), 'acme_save' ) ) {
\t\treturn;
\t}
\t$title = isset( $_POST['title'] ) ? sanitize_text_field( wp_unslash( $_POST['title'] ) ) : '';
\tupdate_option( 'acme_gallery_title', $title );
}
add_action( 'admin_post_acme_save', 'acme_gallery_save' );
`;
  for (let i = 0; php.length < 50 * 1024; i++) {
    php += `
/** Field ${i} of the settings page. */
function acme_gallery_field_${i}( $args ) {
\t$options = get_option( 'acme_gallery_options', array() );
\t$value   = isset( $options[ $args['label_for'] ] ) ? $options[ $args['label_for'] ] : '';
\tprintf( '<input type="text" id="%1$s" name="acme_gallery_options[%1$s]" value="%2$s" />', esc_attr( $args['label_for'] ), esc_attr( $value ) );
\t$ids = array_map( 'absint', (array) get_post_meta( get_the_ID(), '_acme_items', true ) );
\tforeach ( $ids as $id ) {
\t\techo '<li>' . esc_html( get_the_title( $id ) ) . '</li>';
\t}
}
`;
  }
  return Buffer.from(php);
}
