// Three.js objects for a Gauss model: one "rig" per trajectory, holding a copy of every geom
// and site attached to per-body groups posed from the scene JSON (apps/gauss/view_scene.h).
import * as THREE from 'three';

/** @typedef {{type:string, body:number, size:number[], pos:number[], quat:number[],
 *   rgba?:number[], name:string, collides?:boolean, group?:number, mesh?:number,
 *   hfield?:number}} Part */
/** @typedef {{name:string, nrow:number, ncol:number, size:number[], data:number[]}} HField */
/** @typedef {{name:string, rgba:number[], group:number, face:number[], nvert:number}} Skin */
/** @typedef {{name:string, timestep:number, bodies:{name:string,parent:number}[],
 *   geoms:Part[], sites:Part[], skins?:Skin[],
 *   meshes:{name:string, vert:number[], face:number[]}[], hfields?:HField[]}} ModelJson */

/** @param {number[]} rgba @returns {boolean} MJCF's default grey (no rgba and no material) */
const isDefaultRgba = (rgba) => rgba[0] === 0.5 && rgba[1] === 0.5 && rgba[2] === 0.5 && rgba[3] === 1;

/** Colours of moving geoms that the model leaves at MJCF's default grey, one per body. */
const BODY_COLOURS = [0x4e79a7, 0xf28e2b, 0x59a14f, 0xb07aa1, 0xedc948, 0x76b7b2, 0xff9da7, 0x9c755f];

/** Colours given to the trajectories after the first (legend and ghost tint). */
export const PALETTE = ['#808080', '#e4572e', '#17bebb', '#ffc914', '#76b041', '#7e52a0'];

/**
 * A unit-free geometry for one geom or site, with MuJoCo's z axis as the long axis.
 * @param {Part} part @param {ModelJson} model @returns {THREE.BufferGeometry|null}
 */
function partGeometry(part, model) {
  const [a, b, c] = part.size;
  switch (part.type) {
    case 'sphere': return new THREE.SphereGeometry(a, 32, 16);
    case 'ellipsoid': return new THREE.SphereGeometry(1, 32, 16).scale(a, b, c);
    case 'capsule': return new THREE.CapsuleGeometry(a, 2 * b, 8, 24).rotateX(Math.PI / 2);
    case 'cylinder': return new THREE.CylinderGeometry(a, a, 2 * b, 32).rotateX(Math.PI / 2);
    case 'box': return new THREE.BoxGeometry(2 * a, 2 * b, 2 * c);
    case 'mesh': {
      const mesh = model.meshes[part.mesh ?? -1];
      if (!mesh) return null;
      const g = new THREE.BufferGeometry();
      g.setAttribute('position', new THREE.Float32BufferAttribute(mesh.vert, 3));
      g.setIndex(mesh.face);
      const flat = g.toNonIndexed();  // faceted normals: a compiled mesh has sharp edges
      flat.computeVertexNormals();
      return flat;
    }
    case 'hfield': {
      const field = (model.hfields ?? [])[part.hfield ?? -1];
      return field ? heightFieldGeometry(field) : null;
    }
    default: return null;  // planes are drawn by planeObject
  }
}

/**
 * A height field's surface in its geom frame: vertex (r, c) at
 * ((2c/(ncol-1) - 1) sx, (2r/(nrow-1) - 1) sy, data[r ncol + c] sz), two triangles per cell, and
 * four side walls down to the base (-size[3]), so that the terrain reads as a solid block.
 * @param {HField} field @returns {THREE.BufferGeometry}
 */
function heightFieldGeometry(field) {
  const {nrow, ncol, size, data} = field;
  const [sx, sy, sz, base] = size;
  const x = (c) => (2 * c / (ncol - 1) - 1) * sx;
  const y = (r) => (2 * r / (nrow - 1) - 1) * sy;
  const position = [];
  const index = [];
  for (let r = 0; r < nrow; ++r) {
    for (let c = 0; c < ncol; ++c) position.push(x(c), y(r), data[r * ncol + c] * sz);
  }
  for (let r = 0; r + 1 < nrow; ++r) {
    for (let c = 0; c + 1 < ncol; ++c) {
      const v = r * ncol + c;
      index.push(v, v + 1, v + ncol + 1, v, v + ncol + 1, v + ncol);
    }
  }
  // walls: each boundary edge of the grid joined to its copy at the base
  const wall = (cells) => {
    for (let i = 0; i + 1 < cells.length; ++i) {
      const [a, b] = [cells[i], cells[i + 1]];
      const first = position.length / 3;
      position.push(position[3 * a], position[3 * a + 1], -base,
                    position[3 * b], position[3 * b + 1], -base);
      index.push(a, b, first + 1, a, first + 1, first);
    }
  };
  const row = (r) => Array.from({length: ncol}, (_, c) => r * ncol + c);
  const column = (c) => Array.from({length: nrow}, (_, r) => r * ncol + c);
  [row(0), row(nrow - 1), column(0), column(ncol - 1)].forEach(wall);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(position, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  return g;
}

/**
 * A plane geom: a translucent square with a grid (half sizes 0 mean infinite: `extent`).
 * @param {Part} part @param {THREE.Material} material @param {number} extent
 */
function planeObject(part, material, extent) {
  const hx = part.size[0] > 0 ? part.size[0] : extent;
  const hy = part.size[1] > 0 ? part.size[1] : extent;
  const group = new THREE.Group();
  group.add(new THREE.Mesh(new THREE.PlaneGeometry(2 * hx, 2 * hy), material));
  const half = Math.max(hx, hy);
  const spacing = part.size[2] > 0 ? part.size[2] : half / 10;
  const divisions = Math.min(40, Math.max(2, Math.round(2 * half / spacing)));  // lines stay visible from afar
  const grid = new THREE.GridHelper(2 * half, divisions, 0x303030, 0x7a7a7a);
  grid.rotateX(Math.PI / 2);  // GridHelper lies in x-z; MuJoCo planes lie in x-y
  grid.position.z = 1e-3 * half;  // above the plane's surface, not fighting it
  group.add(grid);
  return group;
}

/** @param {number[]} p position @param {number[]} q quaternion w x y z @param {THREE.Object3D} o */
export function setPose(o, p, q) {
  o.position.set(p[0], p[1], p[2]);
  o.quaternion.set(q[1], q[2], q[3], q[0]);
}

/** One drawn copy of the model. */
export class Rig {
  /**
   * @param {ModelJson} model @param {number} index trajectory index (colour)
   * @param {number} extent scene size, for infinite planes
   */
  constructor(model, index, extent) {
    this.root = new THREE.Group();
    /** @type {THREE.Group[]} one per body, posed in world coordinates */
    this.bodies = model.bodies.map(() => new THREE.Group());
    this.bodies.forEach((g) => this.root.add(g));
    /** @type {THREE.Object3D[]} */ this.collisionGeoms = [];
    /** @type {THREE.Object3D[]} */ this.visualGeoms = [];
    /** @type {THREE.Object3D[]} */ this.sites = [];
    /** @type {THREE.Object3D[]} geoms of the world body (floor, ramps) */ this.worldGeoms = [];
    /** @type {THREE.Object3D[]} plane geoms (one floor is drawn for all copies) */ this.planes = [];
    /** @type {THREE.MeshStandardMaterial[]} */ this.materials = [];
    const tint = new THREE.Color(PALETTE[index % PALETTE.length]);
    /** @param {number[]} rgba @param {THREE.Color} color */
    const material = (rgba, color) => {
      if (index > 0) color.lerp(tint, 0.6);
      const m = new THREE.MeshStandardMaterial({
        color, roughness: 0.65, metalness: 0.05, side: THREE.DoubleSide,
        transparent: rgba[3] < 1, opacity: rgba[3]});
      m.userData.baseOpacity = rgba[3];
      this.materials.push(m);
      return m;
    };
    for (const geom of model.geoms) {
      // rgba: the colour gauss says the geom is drawn with (its own, or its material's)
      const rgba = geom.rgba ?? [0.5, 0.5, 0.5, 1];
      const isDefault = isDefaultRgba(rgba);
      const color = isDefault && geom.body > 0 ? new THREE.Color(BODY_COLOURS[(geom.body - 1) % BODY_COLOURS.length])
        : isDefault && geom.type === 'plane' ? new THREE.Color(0.72, 0.74, 0.76) : new THREE.Color(rgba[0], rgba[1], rgba[2]);
      let object;
      if (geom.type === 'plane') {
        object = planeObject(geom, material(rgba, color), extent);
      } else {
        const geometry = partGeometry(geom, model);
        if (!geometry) continue;
        object = new THREE.Mesh(geometry, material(rgba, color));
      }
      setPose(object, geom.pos, geom.quat);
      object.name = geom.name;
      this.bodies[geom.body].add(object);
      (geom.collides === false ? this.visualGeoms : this.collisionGeoms).push(object);
      if (geom.body === 0) this.worldGeoms.push(object);
      if (geom.type === 'plane') this.planes.push(object);
    }
    // sites left at the default grey are drawn red and see-through, as markers
    const siteMaterial = new THREE.MeshStandardMaterial({color: 0xd03030, transparent: true, opacity: 0.6});
    for (const site of model.sites) {
      const geometry = partGeometry(site, model) ?? new THREE.SphereGeometry(site.size[0] || 0.01, 16, 8);
      const rgba = site.rgba ?? [0.5, 0.5, 0.5, 1];
      const object = new THREE.Mesh(geometry, isDefaultRgba(rgba) ? siteMaterial
        : new THREE.MeshStandardMaterial({color: new THREE.Color(rgba[0], rgba[1], rgba[2]), transparent: rgba[3] < 1, opacity: rgba[3]}));
      setPose(object, site.pos, site.quat);
      this.bodies[site.body].add(object);
      this.sites.push(object);
    }
    /** @type {THREE.Mesh[]} skins: triangle meshes whose vertices gauss poses every frame */
    this.skins = (model.skins ?? []).map((skin) => {
      const geometry = new THREE.BufferGeometry();
      geometry.setAttribute('position', new THREE.Float32BufferAttribute(new Float32Array(3 * skin.nvert), 3));
      geometry.setIndex(skin.face);
      const object = new THREE.Mesh(geometry, material(skin.rgba, new THREE.Color(skin.rgba[0], skin.rgba[1], skin.rgba[2])));
      object.name = skin.name;
      object.frustumCulled = false;  // the bounds change with every pose
      this.root.add(object);
      this.visualGeoms.push(object);
      return object;
    });
    this.contacts = new ContactLayer();
    this.root.add(this.contacts.group);
  }

  /** Skin vertices (world x y z, skin after skin) from `verts` starting at `offset`. */
  poseSkins(verts, offset) {
    let k = offset;
    for (const skin of this.skins) {
      const position = skin.geometry.getAttribute('position');
      for (let i = 0; i < position.array.length; ++i) position.array[i] = verts[k++];
      position.needsUpdate = true;
      skin.geometry.computeVertexNormals();  // smooth shading across the deforming surface
    }
  }

  /** Poses of bodies 1..n-1 from `poses` starting at `offset` (7 numbers per body). */
  pose(poses, offset) {
    for (let b = 1; b < this.bodies.length; ++b) {
      const k = offset + 7 * (b - 1);
      this.bodies[b].position.set(poses[k], poses[k + 1], poses[k + 2]);
      this.bodies[b].quaternion.set(poses[k + 4], poses[k + 5], poses[k + 6], poses[k + 3]);
    }
  }

  /** Ghosts are see-through so that the first trajectory shows through them. */
  setGhost(ghost) {
    for (const m of this.materials) {
      const opacity = ghost ? Math.min(0.45, m.userData.baseOpacity) : m.userData.baseOpacity;
      m.opacity = opacity;
      m.transparent = opacity < 1;
      m.depthWrite = !ghost;
      m.needsUpdate = true;
    }
  }
}

/** Contact points (spheres) and force arrows, reused from frame to frame. */
export class ContactLayer {
  constructor() {
    this.group = new THREE.Group();
    /** @type {{dot:THREE.Mesh, arrow:THREE.ArrowHelper}[]} */ this.pool = [];
    this.dotGeometry = new THREE.SphereGeometry(1, 12, 6);
    this.dotMaterial = new THREE.MeshBasicMaterial({color: 0xff2020});
  }

  /**
   * Shows contacts [frame,px,py,pz,nx,ny,nz,fn,ft]... in data[begin, end) (9 numbers each).
   * @param {number[]} data @param {number} begin @param {number} end
   * @param {number} radius dot radius @param {number} forceScale arrow length per newton
   */
  show(data, begin, end, radius, forceScale) {
    const n = (end - begin) / 9;
    while (this.pool.length < n) {
      const dot = new THREE.Mesh(this.dotGeometry, this.dotMaterial);
      const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 0, 1), new THREE.Vector3(), 1, 0x2050ff);
      this.group.add(dot, arrow);
      this.pool.push({dot, arrow});
    }
    const dir = new THREE.Vector3();
    this.pool.forEach(({dot, arrow}, i) => {
      const visible = i < n;
      dot.visible = visible;
      arrow.visible = false;
      if (!visible) return;
      const k = begin + 9 * i;
      dot.position.set(data[k + 1], data[k + 2], data[k + 3]);
      dot.scale.setScalar(radius);
      const length = data[k + 7] * forceScale;
      if (length > 1e-6) {
        dir.set(data[k + 4], data[k + 5], data[k + 6]).normalize();
        arrow.position.copy(dot.position);
        arrow.setDirection(dir);
        arrow.setLength(length, Math.min(0.3 * length, 4 * radius), Math.min(0.15 * length, 2 * radius));
        arrow.visible = true;
      }
    });
  }
}
